// A small, bounds-checked reader for the CUDA ELF (cubin) headers and symbol
// tables. Private to libalgos: serves deserialize's validation and the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

inline constexpr std::uint16_t kElfMachineCuda = 190;  // EM_CUDA

struct ElfInfo {
  std::uint16_t machine = 0;         // e_machine
  std::uint32_t flags = 0;           // e_flags
  std::uint8_t abi_version = 0;      // e_ident[EI_ABIVERSION]
  std::uint32_t sm = 0;              // target SM decoded from flags (90 for sm_90), 0 if not CUDA
  std::vector<std::string> symbols;  // names from every SHT_SYMTAB, in order
};

// Parses a 64-bit little-endian ELF image. Every offset and size is checked
// against the image. Error: corrupt (not such an ELF, or any field out of bounds).
Result<ElfInfo> read_elf(std::span<const std::byte> image);

// read_elf() without collecting names: calls `on_symbol` with each symbol name (a view
// into `image`), in order, and leaves ElfInfo::symbols empty. Allocates nothing per
// symbol. The same checks and errors as read_elf().
Result<ElfInfo> scan_elf(std::span<const std::byte> image,
                         const std::function<void(std::string_view)>& on_symbol);

}  // namespace cccl_cache::algos::detail
