#include "elf.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace cccl_cache::algos::detail {
namespace {

constexpr std::size_t kEhdrSize = 64, kShdrSize = 64, kSymSize = 24;
constexpr std::uint32_t kShtNull = 0, kShtSymtab = 2, kShtStrtab = 3, kShtNobits = 8;
constexpr std::uint32_t kShtCudaInfo = 0x70000000;  // SHT_LOPROC: .nv.info sections
constexpr std::uint64_t kShfExecInstr = 0x4;
constexpr std::uint8_t kSttFunc = 2, kStbGlobal = 1, kStbWeak = 2;
constexpr std::uint8_t kStoCudaEntry = 0x10;  // st_other bit of a kernel entry point
// .nv.info entries: format:u8 attribute:u8, then u16 size + bytes (EIFMT_SVAL) or a
// u16 value (EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL).
constexpr std::uint8_t kEifmtNval = 1, kEifmtSval = 4;
constexpr std::uint8_t kEiattrMaxThreads = 0x05, kEiattrReqntid = 0x10;
constexpr std::size_t kMaxKernels = 16;  // as many as a build record holds

class Reader {
 public:
  explicit Reader(std::span<const std::byte> b) : b_(b) {}
  bool fits(std::uint64_t off, std::uint64_t len) const {
    return off <= b_.size() && len <= b_.size() - off;
  }
  template <class T>
  T get(std::uint64_t off) const {  // little-endian (as the host); caller checked fits()
    static_assert(std::endian::native == std::endian::little);
    T v;
    std::memcpy(&v, b_.data() + off, sizeof v);
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

struct Section {
  std::uint32_t name = 0, type = 0, link = 0, info = 0;
  std::uint64_t flags = 0, offset = 0, size = 0, entsize = 0;
};

struct Symbol {
  std::string_view name;
  std::uint8_t type = 0, binding = 0, other = 0;
  std::uint16_t section = 0;
};

// The ELF header and the section table, checked: every section with contents lies
// inside the image and no two overlap (so the tables below are read at most once
// each: the work stays linear in the image size), within the limits.
struct Parsed {
  ElfInfo info;
  std::vector<Section> sections;
  std::uint16_t shstrndx = 0;
};

Result<Parsed> parse(const Reader& r) {
  if (!r.fits(0, kEhdrSize)) return corrupt("shorter than an ELF header");
  if (r.byte(0) != 0x7f || r.byte(1) != 'E' || r.byte(2) != 'L' || r.byte(3) != 'F')
    return corrupt("no ELF magic");
  if (r.byte(4) != 2 || r.byte(5) != 1) return corrupt("not a 64-bit little-endian ELF");
  Parsed p;
  ElfInfo& info = p.info;
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
  p.shstrndx = r.get<std::uint16_t>(62);
  if (shnum == 0) return p;
  if (shnum > kElfMaxSections)
    return corrupt(std::to_string(shnum) + " sections, more than the " +
                   std::to_string(kElfMaxSections) + " accepted");
  if (shentsize != kShdrSize) return corrupt("unexpected section header size");
  if (!r.fits(shoff, std::uint64_t{shnum} * kShdrSize))
    return corrupt("section headers out of bounds");
  p.sections.resize(shnum);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> extents;  // [offset, end) with contents
  std::size_t symtabs = 0;
  std::uint64_t symbols = 0;
  for (std::uint32_t i = 0; i < shnum; ++i) {
    const auto sh = shoff + std::uint64_t{i} * kShdrSize;
    Section& s = p.sections[i];
    s.name = r.get<std::uint32_t>(sh);
    s.type = r.get<std::uint32_t>(sh + 4);
    s.flags = r.get<std::uint64_t>(sh + 8);
    s.offset = r.get<std::uint64_t>(sh + 24);
    s.size = r.get<std::uint64_t>(sh + 32);
    s.link = r.get<std::uint32_t>(sh + 40);
    s.info = r.get<std::uint32_t>(sh + 44);
    s.entsize = r.get<std::uint64_t>(sh + 56);
    if (s.type == kShtNull || s.type == kShtNobits || s.size == 0) continue;
    if (!r.fits(s.offset, s.size))
      return corrupt("section " + std::to_string(i) + " out of bounds");
    extents.emplace_back(s.offset, s.offset + s.size);
    if (s.type == kShtSymtab) {
      if (++symtabs > kElfMaxSymbolTables)
        return corrupt("more than " + std::to_string(kElfMaxSymbolTables) + " symbol tables");
      if (s.entsize != kSymSize || s.size % kSymSize != 0)
        return corrupt("symbol table out of bounds");
      symbols += s.size / kSymSize;
      if (symbols > kElfMaxSymbols)
        return corrupt("more than " + std::to_string(kElfMaxSymbols) + " symbols");
    }
  }
  std::sort(extents.begin(), extents.end());
  for (std::size_t i = 1; i < extents.size(); ++i)
    if (extents[i].first < extents[i - 1].second) return corrupt("overlapping sections");
  for (const Section& s : p.sections) {
    if (s.type != kShtSymtab || s.size == 0) continue;
    if (s.link >= shnum) return corrupt("symbol table names a missing string table");
    const Section& str = p.sections[s.link];
    if (str.type != kShtStrtab || str.size == 0)
      return corrupt("symbol table's string table is not a string table");
  }
  return p;
}

constexpr std::size_t kNoNameId = ~std::size_t{0};

Symbol symbol_at(const Reader& r, std::uint64_t at, std::string_view name) {
  Symbol sym;
  sym.name = name;
  const auto st_info = r.byte(at + 4);
  sym.type = st_info & 0xfu;
  sym.binding = st_info >> 4;
  sym.other = r.byte(at + 5);
  sym.section = r.get<std::uint16_t>(at + 6);
  return sym;
}

// Calls on_symbol(symbol, name_id) for every symbol of every symbol table, in order,
// scanning each string table's bytes a bounded number of times however many symbols
// share or overlap a name. Names are found one by one while the bytes scanned stay
// within the table's size (always so when names do not share bytes: real cubins), with
// name_id kNoNameId. Past that, the remaining symbols' names are resolved by one sweep
// over their sorted distinct offsets, and name_id numbers those distinct names (equal
// ids: the same bytes; fewer than on_slow_path's argument), so that callers can
// compare each name once.
template <class OnSlowPath, class OnSymbol>
Result<void> each_symbol(const Reader& r, const Parsed& p, OnSlowPath&& on_slow_path,
                         OnSymbol&& on_symbol) {
  std::vector<std::uint32_t> offsets, ends;
  for (const Section& s : p.sections) {
    if (s.type != kShtSymtab || s.size == 0) continue;
    const Section& str_section = p.sections[s.link];
    const std::string_view str = r.text(str_section.offset, str_section.size);
    const std::uint64_t count = s.size / kSymSize;
    std::uint64_t budget = str.size(), i = 0;
    for (; i < count; ++i) {
      const auto at = s.offset + i * kSymSize;
      const auto name = r.get<std::uint32_t>(at);
      if (name >= str.size()) return corrupt("symbol name out of bounds");
      const std::size_t scan = std::min<std::uint64_t>(budget, str.size() - name);
      const void* nul = std::memchr(str.data() + name, 0, scan);
      if (nul == nullptr) {
        if (scan == str.size() - name) return corrupt("unterminated symbol name");
        break;  // over budget: names share bytes
      }
      const auto length = static_cast<std::size_t>(static_cast<const char*>(nul) - str.data()) - name;
      budget -= length + 1;
      on_symbol(symbol_at(r, at, str.substr(name, length)), kNoNameId);
    }
    if (i == count) continue;
    offsets.clear();
    for (std::uint64_t j = i; j < count; ++j) {
      const auto name = r.get<std::uint32_t>(s.offset + j * kSymSize);
      if (name >= str.size()) return corrupt("symbol name out of bounds");
      offsets.push_back(name);
    }
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    // A name ends at the first NUL after its offset: in [offset, next offset), or else
    // where the next name ends.
    ends.assign(offsets.size(), 0);
    for (std::size_t k = offsets.size(); k-- > 0;) {
      const std::size_t limit = k + 1 < offsets.size() ? offsets[k + 1] : str.size();
      const void* nul = std::memchr(str.data() + offsets[k], 0, limit - offsets[k]);
      if (nul != nullptr)
        ends[k] = static_cast<std::uint32_t>(static_cast<const char*>(nul) - str.data());
      else if (k + 1 < offsets.size())
        ends[k] = ends[k + 1];
      else
        return corrupt("unterminated symbol name");
    }
    on_slow_path(offsets.size());
    for (; i < count; ++i) {
      const auto at = s.offset + i * kSymSize;
      const auto name = r.get<std::uint32_t>(at);
      const auto k = static_cast<std::size_t>(
          std::lower_bound(offsets.begin(), offsets.end(), name) - offsets.begin());
      on_symbol(symbol_at(r, at, str.substr(name, ends[k] - name)), k);
    }
  }
  return {};
}

bool section_name_starts_with(const Reader& r, const Parsed& p, const Section& s,
                              std::string_view prefix) {
  if (p.shstrndx >= p.sections.size()) return false;
  const Section& str = p.sections[p.shstrndx];
  if (str.type != kShtStrtab || s.name >= str.size) return false;
  const auto name = r.text(str.offset + s.name, std::min<std::uint64_t>(str.size - s.name,
                                                                        prefix.size()));
  return name == prefix;
}

// Reads the attributes of one .nv.info section (the section lies inside the image).
Result<void> read_info(const Reader& r, const Section& s, ElfKernel& k) {
  std::uint64_t at = s.offset;
  const std::uint64_t end = s.offset + s.size;
  while (at < end) {
    if (end - at < 4) return corrupt(".nv.info entry truncated");
    const auto format = r.byte(at), attribute = r.byte(at + 1);
    if (format < kEifmtNval || format > kEifmtSval)
      return corrupt(".nv.info entry of unknown format " + std::to_string(format));
    if (format != kEifmtSval) {
      at += 4;
      continue;
    }
    const auto size = r.get<std::uint16_t>(at + 2);
    if (size > end - at - 4) return corrupt(".nv.info entry out of bounds");
    if (attribute == kEiattrMaxThreads || attribute == kEiattrReqntid) {
      if (size != 12) return corrupt(".nv.info block shape of unexpected size");
      const std::array<std::uint32_t, 3> shape = {r.get<std::uint32_t>(at + 4),
                                                  r.get<std::uint32_t>(at + 8),
                                                  r.get<std::uint32_t>(at + 12)};
      (attribute == kEiattrMaxThreads ? k.max_threads : k.reqntid) = shape;
    }
    at += 4 + std::uint64_t{size};
  }
  return {};
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
  const Reader r(image);
  auto p = parse(r);
  if (!p) return tl::unexpected(p.error());
  auto walked = each_symbol(
      r, *p, [](std::size_t) {}, [&](const Symbol& s, std::size_t) { on_symbol(s.name); });
  if (!walked) return tl::unexpected(walked.error());
  return std::move(p->info);
}

Result<ElfInfo> read_kernels(std::span<const std::byte> image,
                             std::span<const std::string_view> names, std::span<ElfKernel> out) {
  if (names.size() != out.size() || names.size() > kMaxKernels)
    return fail(ErrorCode::invalid_argument, "read_kernels: names and results differ in size");
  const Reader r(image);
  auto p = parse(r);
  if (!p) return tl::unexpected(p.error());
  std::fill(out.begin(), out.end(), ElfKernel{});
  std::array<Symbol, kMaxKernels> found;  // the last symbol seen with each name
  // On the slow path, per distinct name of the table: which of `names` it spells (bit
  // i), found once.
  std::vector<std::uint16_t> spells;
  constexpr std::uint16_t kUnknown = 0xffff;
  auto spelled = [&](std::string_view name) {
    std::uint16_t bits = 0;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (name == names[i]) bits |= static_cast<std::uint16_t>(1u << i);
    return bits;
  };
  auto walked = each_symbol(
      r, *p, [&](std::size_t distinct) { spells.assign(distinct, kUnknown); },
      [&](const Symbol& s, std::size_t id) {
        std::uint16_t bits = 0;
        if (id == kNoNameId) {
          bits = spelled(s.name);
        } else {
          if (spells[id] == kUnknown) spells[id] = spelled(s.name);
          bits = spells[id];
        }
        for (std::size_t i = 0; bits != 0 && i < names.size(); ++i) {
          if ((bits & (1u << i)) == 0) continue;
          ++out[i].symbols;
          found[i] = s;
        }
      });
  if (!walked) return tl::unexpected(walked.error());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Symbol& s = found[i];
    ElfKernel& k = out[i];
    k.entry = k.symbols == 1 && s.type == kSttFunc &&
              (s.binding == kStbGlobal || s.binding == kStbWeak) &&
              (s.other & kStoCudaEntry) != 0 && s.section != 0 &&
              s.section < p->sections.size() &&
              (p->sections[s.section].flags & kShfExecInstr) != 0;
    if (!k.entry) continue;
    // The kernel's own sections name its code section in sh_info.
    for (const Section& sec : p->sections) {
      if (sec.info != s.section) continue;
      if (sec.type == kShtCudaInfo) {
        if (auto ok = read_info(r, sec, k); !ok) return tl::unexpected(ok.error());
      } else if (sec.type == kShtNobits && section_name_starts_with(r, *p, sec, ".nv.shared.")) {
        k.static_shared_bytes = sec.size;
      }
    }
  }
  return std::move(p->info);
}

}  // namespace cccl_cache::algos::detail
