// Fuzzes the export archive's body (entries and trailer): the input goes behind a
// valid uncompressed header, so no mutation is spent on the header.
#include <cstring>
#include <vector>

#include "archive.hpp"
#include "fuzz_util.hpp"

using namespace cccl_cache;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> file(16 + size);
  std::memcpy(file.data(), cli::kArchiveMagic, 8);
  const std::uint32_t version = cli::kArchiveVersion, flags = 0;
  std::memcpy(file.data() + 8, &version, 4);
  std::memcpy(file.data() + 12, &flags, 4);
  if (size) std::memcpy(file.data() + 16, data, size);
  auto r = cli::parse_archive(file, {}, "fuzz.ccar");
  fuzz::require(r.has_value(), "a valid header is never an error, only problems");
  for (const auto& e : r->entries)
    fuzz::require(e.payload.size() == e.meta.payload_size, "payload size matches its entry");
  fuzz::require(r->trailer_ok || !r->problems.empty(), "a bad trailer is reported");
  return 0;
}
