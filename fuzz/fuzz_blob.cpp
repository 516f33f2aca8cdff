// Fuzzes the build-record blob (algos/core/blob.hpp) as a store hit reads it:
// parse_record (the generic grammar, the ELF reader's kernel facts) then merge sort's
// typed checks (spec fields, runtime values, MergeSort::check), and the owning form.
#include <vector>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "fuzz_util.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::bytes_of(data, size);
  if (auto r = parse_record(in)) {
    fuzz::require_inside(r->cubin, in, "cubin");
    fuzz::require_inside(r->spec, in, "spec");
    fuzz::require_inside(r->toolchain, in, "toolchain");
    for (auto k : r->kernels()) fuzz::require_inside(k, in, "kernel name");
    fuzz::touch(r->cubin);
  }
  auto view = deserialize_view<MergeSort>(in);
  auto owned = deserialize<MergeSort>(in);
  fuzz::require(view.has_value() == owned.has_value(), "deserialize and deserialize_view agree");
  if (owned) {
    // What deserialize accepts serializes back to the same blob.
    fuzz::require(serialize(*owned) == std::vector<std::byte>(in.begin(), in.end()), "round trip");
  }
  return 0;
}
