#include "elf.hpp"

#include <cstring>

namespace cccl_cache::algos::detail {
namespace {

constexpr std::size_t kEhdrSize = 64, kShdrSize = 64, kSymSize = 24;
constexpr std::uint32_t kShtSymtab = 2;

class Reader {
 public:
  explicit Reader(std::span<const std::byte> b) : b_(b) {}
  bool fits(std::uint64_t off, std::uint64_t len) const {
    return off <= b_.size() && len <= b_.size() - off;
  }
  template <class T>
  T get(std::uint64_t off) const {  // little-endian; caller checked fits()
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      v |= static_cast<T>(static_cast<T>(b_[off + i]) << (8 * i));
    return v;
  }
  std::uint8_t byte(std::uint64_t off) const { return static_cast<std::uint8_t>(b_[off]); }
  std::string_view text(std::uint64_t off, std::uint64_t len) const {  // caller checked fits()
    return {reinterpret_cast<const char*>(b_.data() + off), static_cast<std::size_t>(len)};
  }

 private:
  std::span<const std::byte> b_;
};

tl::unexpected<Error> corrupt(const std::string& what) {
  return fail(ErrorCode::corrupt, "cubin: " + what);
}

}  // namespace

Result<ElfInfo> read_elf(std::span<const std::byte> image) {
  std::vector<std::string> names;
  auto info = scan_elf(image, [&](std::string_view name) { names.emplace_back(name); });
  if (info) info->symbols = std::move(names);
  return info;
}

Result<ElfInfo> scan_elf(std::span<const std::byte> image,
                         const std::function<void(std::string_view)>& on_symbol) {
  Reader r(image);
  if (!r.fits(0, kEhdrSize)) return corrupt("shorter than an ELF header");
  if (r.byte(0) != 0x7f || r.byte(1) != 'E' || r.byte(2) != 'L' || r.byte(3) != 'F')
    return corrupt("no ELF magic");
  if (r.byte(4) != 2 || r.byte(5) != 1) return corrupt("not a 64-bit little-endian ELF");
  ElfInfo info;
  info.abi_version = r.byte(8);
  info.machine = r.get<std::uint16_t>(18);
  info.flags = r.get<std::uint32_t>(48);
  if (info.machine == kElfMachineCuda) {
    // ELF ABI version 8 (CUDA 12.8+) moved the SM number from bits 0-7 to bits 8-15.
    info.sm = info.abi_version >= 8 ? (info.flags >> 8) & 0xffu : info.flags & 0xffu;
  }
  const auto shoff = r.get<std::uint64_t>(40);
  const auto shentsize = r.get<std::uint16_t>(58);
  const auto shnum = r.get<std::uint16_t>(60);
  if (shnum == 0) return info;
  if (shentsize != kShdrSize) return corrupt("unexpected section header size");
  if (!r.fits(shoff, std::uint64_t{shnum} * kShdrSize))
    return corrupt("section headers out of bounds");
  auto section = [&](std::uint32_t i) { return shoff + std::uint64_t{i} * kShdrSize; };
  for (std::uint32_t i = 0; i < shnum; ++i) {
    const auto sh = section(i);
    if (r.get<std::uint32_t>(sh + 4) != kShtSymtab) continue;
    const auto off = r.get<std::uint64_t>(sh + 24), size = r.get<std::uint64_t>(sh + 32);
    const auto link = r.get<std::uint32_t>(sh + 40);
    const auto entsize = r.get<std::uint64_t>(sh + 56);
    if (entsize != kSymSize || size % kSymSize != 0 || !r.fits(off, size))
      return corrupt("symbol table out of bounds");
    if (link >= shnum) return corrupt("symbol table names a missing string table");
    const auto str_off = r.get<std::uint64_t>(section(link) + 24),
               str_size = r.get<std::uint64_t>(section(link) + 32);
    if (!r.fits(str_off, str_size)) return corrupt("string table out of bounds");
    for (std::uint64_t s = off; s < off + size; s += kSymSize) {
      const auto name = r.get<std::uint32_t>(s);
      if (name >= str_size) return corrupt("symbol name out of bounds");
      const auto text = r.text(str_off + name, str_size - name);
      const auto end = text.find('\0');
      if (end == std::string_view::npos) return corrupt("unterminated symbol name");
      on_symbol(text.substr(0, end));
    }
  }
  return info;
}

}  // namespace cccl_cache::algos::detail
