// Fuzzes the bounds-checked ELF reader (libalgos/src/elf.hpp): read_elf and scan_elf
// must agree, and every symbol name scan_elf hands out must lie inside the image.
#include <string>
#include <vector>

#include "elf.hpp"
#include "fuzz_util.hpp"

using namespace cccl_cache;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::bytes_of(data, size);
  auto full = algos::detail::read_elf(in);
  std::size_t n = 0;
  auto scanned = algos::detail::scan_elf(in, [&](std::string_view name) {
    fuzz::require_inside(name, in, "symbol name");
    fuzz::touch(name);
    ++n;
  });
  fuzz::require(full.has_value() == scanned.has_value(), "read_elf and scan_elf agree");
  if (full) {
    fuzz::require(full->symbols.size() == n, "same symbol count");
    fuzz::require(full->sm == scanned->sm && full->flags == scanned->flags, "same header");
  }
  return 0;
}
