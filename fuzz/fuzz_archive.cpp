// Fuzzes the export archive (tools/cccl-cache/archive.hpp, parse_archive) as a whole
// file: header, optional zstd body, entries and trailer, under the default limits.
#include "archive.hpp"
#include "fuzz_util.hpp"

using namespace cccl_cache;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto r = cli::parse_archive(fuzz::bytes_of(data, size), {}, "fuzz.ccar");
  if (r) {
    for (const auto& e : r->entries)
      fuzz::require(e.payload.size() == e.meta.payload_size, "payload size matches its entry");
  }
  return 0;
}
