// A small, bounds-checked reader for the CUDA ELF (cubin) headers, symbol tables and
// kernel attributes. Private to libalgos: serves deserialize's validation, the tests
// and the fuzz targets. Every function here takes arbitrary bytes: it never reads
// outside `image`, and its work is linear in the image's size (sections must not
// overlap, so no byte is read as two tables; symbol names sharing bytes are resolved
// with one sweep over their sorted offsets; sizes and counts are bounded by the hard
// limits below).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

inline constexpr std::uint16_t kElfMachineCuda = 190;  // EM_CUDA

// Hard limits (a merge-sort cubin has about 30 sections, one symbol table and a few
// hundred symbols). More is rejected as corrupt.
inline constexpr std::size_t kElfMaxSections = 4096;
inline constexpr std::size_t kElfMaxSymbolTables = 4;  // the ELF spec allows one
inline constexpr std::size_t kElfMaxSymbols = std::size_t{1} << 20;  // over all tables

struct ElfInfo {
  std::uint16_t machine = 0;         // e_machine
  std::uint32_t flags = 0;           // e_flags
  std::uint8_t abi_version = 0;      // e_ident[EI_ABIVERSION]
  std::uint32_t sm = 0;              // target SM decoded from flags (90 for sm_90), 0 if not CUDA
  std::vector<std::string> symbols;  // names from every SHT_SYMTAB, in order (read_elf only)
};

// Parses a 64-bit little-endian ELF image. Every offset and size is checked against
// the image; sections with contents must lie inside it and must not overlap; at most
// kElfMaxSections sections, kElfMaxSymbolTables symbol tables and kElfMaxSymbols
// symbols. Error: corrupt (not such an ELF, a field out of bounds, a limit exceeded).
Result<ElfInfo> read_elf(std::span<const std::byte> image);

// read_elf() without collecting names: calls `on_symbol` with each symbol name (a view
// into `image`), in order, and leaves ElfInfo::symbols empty. The same checks and errors
// as read_elf().
Result<ElfInfo> scan_elf(std::span<const std::byte> image,
                         const std::function<void(std::string_view)>& on_symbol);

// What a cubin says about one kernel (by its lowered name).
struct ElfKernel {
  std::uint32_t symbols = 0;  // symbols carrying the name (a usable kernel has exactly one)
  // That one symbol is a kernel entry: FUNC, GLOBAL or WEAK (template instances), marked as a CUDA entry point
  // (st_other STO_CUDA_ENTRY), defined in an executable section.
  bool entry = false;
  // From the kernel's .nv.info.<name> section: EIATTR_MAX_THREADS (__launch_bounds__'s
  // maximum threads per block) and EIATTR_REQNTID (a required block shape), x, y, z.
  std::optional<std::array<std::uint32_t, 3>> max_threads;
  std::optional<std::array<std::uint32_t, 3>> reqntid;
  // Size of its .nv.shared.<name> section: the static shared memory per block.
  std::uint64_t static_shared_bytes = 0;
};

// The facts of each kernel named in `names` (out[i] for names[i]; out.size() must equal
// names.size(), at most 16), with the same checks as read_elf(), plus: an entry kernel's
// .nv.info section must parse (known entry formats, sizes inside the section).
// Error: corrupt, as read_elf(); invalid_argument for a wrong `out` size.
Result<ElfInfo> read_kernels(std::span<const std::byte> image,
                             std::span<const std::string_view> names, std::span<ElfKernel> out);

}  // namespace cccl_cache::algos::detail
