// Fuzzes spec text (tools/cccl-cache/spec_text.hpp): tokenizing and parsing, with a
// small operator table; an accepted spec prints as text that parses back to itself.
#include "fuzz_util.hpp"
#include "spec_text.hpp"

using namespace cccl_cache;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const cli::OperatorTable ops = {
      {"abs_less", "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }"}};
  const auto text = fuzz::text_of(data, size);
  // source_file= paths resolve against a directory that does not exist: no file is read.
  auto r = cli::parse_spec_text(text, ops, "/nonexistent-cccl-cache-fuzz");
  if (r) {
    const std::string again = cli::to_spec_text(*r);
    auto back = cli::parse_spec_text(again, ops);
    // Custom operators print by name only: those from the table parse back whole.
    const auto* algorithm = algos::find_algorithm(r->algorithm);
    auto fields = algorithm->to_text(r->fields);
    fuzz::require(fields.has_value(), "an accepted spec decodes");
    bool from_table = true;
    for (const auto& f : *fields) {
      if (f.source.empty()) continue;
      const auto op = ops.find(f.value);
      from_table = from_table && op != ops.end() && op->second == f.source;
    }
    if (from_table) fuzz::require(back && *back == *r, "to_spec_text parses back to the same spec");
  }
  return 0;
}
