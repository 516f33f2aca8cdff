// Tests' helpers for crafting ELF images: locate a section or a symbol of a valid
// cubin (to alter it in place), and build synthetic images from scratch. Assumes a
// well-formed 64-bit little-endian input; not a reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace test_support::elf {

inline std::uint64_t get(const std::vector<std::byte>& b, std::size_t off, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | std::to_integer<std::uint64_t>(b[off + static_cast<std::size_t>(i)]);
  return v;
}
inline void put(std::vector<std::byte>& b, std::size_t off, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b[off + static_cast<std::size_t>(i)] = std::byte((v >> (8 * i)) & 0xff);
}

struct SectionAt {
  std::size_t header;  // offset of its section header
  std::uint64_t offset, size;
  std::uint32_t type, info;
};

inline SectionAt section(const std::vector<std::byte>& b, std::size_t i) {
  const std::size_t h = get(b, 40, 8) + i * 64;
  return {h, get(b, h + 24, 8), get(b, h + 32, 8), static_cast<std::uint32_t>(get(b, h + 4, 4)),
          static_cast<std::uint32_t>(get(b, h + 44, 4))};
}

inline std::string_view cstr(const std::vector<std::byte>& b, std::size_t off) {
  const char* p = reinterpret_cast<const char*>(b.data() + off);
  return {p, std::strlen(p)};
}

// The section whose name is `name`.
inline std::optional<SectionAt> find_section(const std::vector<std::byte>& b, std::string_view name) {
  const std::size_t n = get(b, 60, 2);
  const auto names = section(b, get(b, 62, 2));
  for (std::size_t i = 0; i < n; ++i) {
    const auto s = section(b, i);
    if (cstr(b, names.offset + get(b, s.header, 4)) == name) return s;
  }
  return std::nullopt;
}

// Offset of the symbol table entry named `name` (first match).
inline std::optional<std::size_t> find_symbol(const std::vector<std::byte>& b, std::string_view name) {
  const std::size_t n = get(b, 60, 2);
  for (std::size_t i = 0; i < n; ++i) {
    const auto s = section(b, i);
    if (s.type != 2) continue;
    const auto strtab = section(b, get(b, s.header + 40, 4));
    for (std::size_t at = s.offset; at < s.offset + s.size; at += 24)
      if (cstr(b, strtab.offset + get(b, at, 4)) == name) return at;
  }
  return std::nullopt;
}

// A minimal CUDA ELF header (sm_90, ABI version 8) with `sections` section headers at
// offset 64, all zero: the caller fills them in (section(), put()).
inline std::vector<std::byte> skeleton(std::size_t sections, std::size_t extra_bytes) {
  std::vector<std::byte> b(64 + sections * 64 + extra_bytes);
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 8};
  for (std::size_t i = 0; i < sizeof ident; ++i) b[i] = std::byte{ident[i]};
  put(b, 18, 190, 2);      // EM_CUDA
  put(b, 48, 90u << 8, 4);  // sm_90
  put(b, 40, 64, 8);       // e_shoff
  put(b, 58, 64, 2);       // e_shentsize
  put(b, 60, sections, 2);  // e_shnum
  return b;
}

// Fills section header i.
inline void set_section(std::vector<std::byte>& b, std::size_t i, std::uint32_t type,
                        std::uint64_t offset, std::uint64_t size, std::uint32_t link = 0,
                        std::uint64_t entsize = 0) {
  const std::size_t h = 64 + i * 64;
  put(b, h + 4, type, 4);
  put(b, h + 24, offset, 8);
  put(b, h + 32, size, 8);
  put(b, h + 40, link, 4);
  put(b, h + 56, entsize, 8);
}

}  // namespace test_support::elf
