#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>

#include "build_cache.hpp"
#include "elf.hpp"
#include "elf_craft.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

const std::vector<std::byte>& cubin() {
  const auto& r = test_support::cached_build(merge_sort::Spec{}, 90);
  if (!r) throw std::runtime_error(r.error().describe());
  return r->result.record.cubin;
}

}  // namespace

TEST(ElfReader, ReadsArchAndSymbolsOfARealCubin) {
  auto elf = algos::detail::read_elf(cubin());
  ASSERT_TRUE(elf) << elf.error().message;
  EXPECT_EQ(elf->machine, algos::detail::kElfMachineCuda);
  EXPECT_EQ(elf->sm, 90u);
  EXPECT_GE(elf->abi_version, 8);
  EXPECT_GT(elf->symbols.size(), 3u);
}

TEST(ElfReader, TruncationNeverReadsOutOfBounds) {
  const auto& image = cubin();
  for (std::size_t n = 0; n < image.size(); n += (n < 128 ? 1 : 61)) {
    // Copy, so that a read past `n` would be a read past the allocation (ASan).
    std::vector<std::byte> prefix(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(n));
    auto elf = algos::detail::read_elf(prefix);
    if (!elf) EXPECT_EQ(elf.error().code, ErrorCode::corrupt) << n;
  }
  EXPECT_FALSE(algos::detail::read_elf({}));
}

TEST(ElfReader, CorruptHeadersAreRejectedOrHarmless) {
  std::mt19937 rng(7);
  const auto& image = cubin();
  for (int i = 0; i < 2000; ++i) {
    auto copy = image;
    // Corrupt the ELF header (first 64 bytes) or the section headers at the end.
    const std::size_t at = (i % 2 == 0)
                               ? rng() % 64
                               : copy.size() - 1 - rng() % std::min<std::size_t>(copy.size(), 1024);
    copy[at] = static_cast<std::byte>(rng());
    auto elf = algos::detail::read_elf(copy);
    if (!elf) EXPECT_EQ(elf.error().code, ErrorCode::corrupt);
  }
}

namespace {

namespace craft = test_support::elf;
using algos::detail::ElfKernel;

const merge_sort::BuildResult& built() {
  const auto& r = test_support::cached_build(merge_sort::Spec{}, 90);
  if (!r) throw std::runtime_error(r.error().describe());
  return r->result;
}

std::string error_of(const Result<algos::detail::ElfInfo>& r) {
  EXPECT_FALSE(r);
  if (r) return "";
  EXPECT_EQ(r.error().code, ErrorCode::corrupt) << r.error().message;
  return r.error().message;
}

// A symbol table at `table` with `count` entries whose names are all at offset `name`
// of a string table at `strings` (`strings_size` bytes), sections 1 and 2.
std::vector<std::byte> one_table(std::size_t count, std::uint32_t name,
                                 std::size_t strings_size) {
  const std::size_t table = 64 + 3 * 64, strings = table + count * 24;
  auto b = craft::skeleton(3, count * 24 + strings_size);
  craft::set_section(b, 1, 2, table, count * 24, 2, 24);
  craft::set_section(b, 2, 3, strings, strings_size);
  for (std::size_t i = 0; i < count; ++i) craft::put(b, table + i * 24, name, 4);
  return b;
}

}  // namespace

TEST(ElfReader, ReadsTheKernelsOfARealCubin) {
  const auto& r = built();
  const std::string_view names[] = {r.record.kernels[0], r.record.kernels[1], r.record.kernels[2],
                                    "no_such_kernel"};
  ElfKernel k[4];
  auto elf = algos::detail::read_kernels(r.record.cubin, names, k);
  ASSERT_TRUE(elf) << elf.error().message;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(k[i].symbols, 1u) << names[i];
    EXPECT_TRUE(k[i].entry) << names[i];
  }
  const std::array<std::uint32_t, 3> launch = {r.policy.block_threads, 1, 1};
  ASSERT_TRUE(k[0].max_threads);
  EXPECT_EQ(*k[0].max_threads, launch);
  ASSERT_TRUE(k[2].max_threads);
  EXPECT_EQ(*k[2].max_threads, launch);
  EXPECT_GT(k[0].static_shared_bytes, 0u);  // the block sort's tile lives in shared memory
  EXPECT_EQ(k[3].symbols, 0u);
  EXPECT_FALSE(k[3].entry);
}

TEST(ElfReader, AlteredKernelAttributesAreReadOrRejected) {
  const auto& r = built();
  const std::string_view names[] = {r.record.kernels[0]};
  auto info = craft::find_section(r.record.cubin, ".nv.info." + r.record.kernels[0]);
  ASSERT_TRUE(info);
  ElfKernel k[1];
  // An entry of unknown format.
  auto bad_format = r.record.cubin;
  bad_format[info->offset] = std::byte{9};
  EXPECT_NE(error_of(algos::detail::read_kernels(bad_format, names, k)).find("unknown format"),
            std::string::npos);
  // A size reaching past the section.
  auto cubin = r.record.cubin;
  std::size_t at = info->offset;
  std::optional<std::size_t> max_threads;
  while (at < info->offset + info->size) {
    const auto format = craft::get(cubin, at, 1), attribute = craft::get(cubin, at + 1, 1);
    if (format == 4 && attribute == 0x05) max_threads = at;
    at += format == 4 ? 4 + craft::get(cubin, at + 2, 2) : 4;
  }
  ASSERT_TRUE(max_threads) << "no EIATTR_MAX_THREADS in the block sort kernel's .nv.info";
  auto oversized = cubin;
  craft::put(oversized, *max_threads + 2, 0xffff, 2);
  EXPECT_NE(error_of(algos::detail::read_kernels(oversized, names, k)).find("out of bounds"),
            std::string::npos);
  // Another value is read as such.
  craft::put(cubin, *max_threads + 4, 64, 4);
  ASSERT_TRUE(algos::detail::read_kernels(cubin, names, k));
  EXPECT_EQ((*k[0].max_threads)[0], 64u);
  // A kernel whose symbol lost its entry mark, or became a local symbol.
  auto sym = craft::find_symbol(r.record.cubin, r.record.kernels[0]);
  ASSERT_TRUE(sym);
  auto not_entry = r.record.cubin;
  not_entry[*sym + 5] &= std::byte{0xef};
  ASSERT_TRUE(algos::detail::read_kernels(not_entry, names, k));
  EXPECT_FALSE(k[0].entry);
  auto local = r.record.cubin;
  local[*sym + 4] &= std::byte{0x0f};
  ASSERT_TRUE(algos::detail::read_kernels(local, names, k));
  EXPECT_FALSE(k[0].entry);
}

// The images an unbounded reader spends minutes on, or reads out of range: each is
// rejected by a limit or a structural check, named in the error.
TEST(ElfReader, HostileSectionTablesAreRejected) {
  struct Case {
    const char* what;
    std::vector<std::byte> image;
    const char* error;
  };
  std::vector<Case> cases;
  {  // thousands of symbol tables over the same bytes
    const std::size_t n = 3000;
    auto b = craft::skeleton(n + 1, 24 * 1000 + 16);
    const std::size_t data = 64 + (n + 1) * 64;
    craft::set_section(b, n, 3, data + 24 * 1000, 16);
    for (std::size_t i = 1; i < n; ++i) craft::set_section(b, i, 2, data, 24 * 1000, n, 24);
    cases.push_back({"overlapping symbol tables", std::move(b), "symbol tables"});
  }
  {  // two symbol tables (within the limit) over the same bytes
    auto b = craft::skeleton(4, 24 * 10 + 16);
    const std::size_t data = 64 + 4 * 64;
    craft::set_section(b, 1, 2, data, 240, 3, 24);
    craft::set_section(b, 2, 2, data + 24, 240 - 24, 3, 24);
    craft::set_section(b, 3, 3, data + 240, 16);
    cases.push_back({"two overlapping tables", std::move(b), "overlapping sections"});
  }
  {  // a string table inside the symbol table
    auto b = craft::skeleton(3, 24 * 10);
    const std::size_t data = 64 + 3 * 64;
    craft::set_section(b, 1, 2, data, 240, 2, 24);
    craft::set_section(b, 2, 3, data + 200, 40);
    cases.push_back({"string table inside symbols", std::move(b), "overlapping sections"});
  }
  {
    auto b = craft::skeleton(algos::detail::kElfMaxSections + 1, 0);
    cases.push_back({"too many sections", std::move(b), "sections, more than"});
  }
  {
    auto b = craft::skeleton(2, 64);
    craft::set_section(b, 1, 1, 64 + 2 * 64 + 32, 64);
    cases.push_back({"section past the end", std::move(b), "out of bounds"});
  }
  {
    auto b = craft::skeleton(2, 64);
    craft::set_section(b, 1, 1, ~std::uint64_t{0} - 8, 64);
    cases.push_back({"section offset wraps", std::move(b), "out of bounds"});
  }
  {
    auto b = one_table(algos::detail::kElfMaxSymbols + 1, 0, 2);
    cases.push_back({"too many symbols", std::move(b), "symbols"});
  }
  {
    auto b = one_table(4, 0, 8);
    craft::set_section(b, 2, 1, 64 + 3 * 64 + 4 * 24, 8);  // PROGBITS, not STRTAB
    cases.push_back({"names in a non-string table", std::move(b), "not a string table"});
  }
  for (auto& c : cases) {
    auto r = algos::detail::read_elf(c.image);
    EXPECT_NE(error_of(r).find(c.error), std::string::npos) << c.what;
    std::string_view none[] = {"x"};
    ElfKernel k[1];
    EXPECT_FALSE(algos::detail::read_kernels(c.image, none, k)) << c.what;
  }
}

// Many symbols naming one long string (or overlapping tails of it): every name is
// resolved right, each byte of the string table scanned once (no timing asserted: the
// bound is structural, see elf.hpp).
TEST(ElfReader, SharedAndOverlappingNamesResolve) {
  const std::size_t count = 20000, length = 100000;
  auto b = one_table(count, 0, length + 1);
  const std::size_t strings = 64 + 3 * 64 + count * 24;
  for (std::size_t i = 0; i < length; ++i) b[strings + i] = std::byte{'a'};
  for (std::size_t i = 0; i < count; i += 2) craft::put(b, 64 + 3 * 64 + i * 24, i, 4);
  std::size_t seen = 0;
  bool right = true;
  auto r = algos::detail::scan_elf(b, [&](std::string_view name) {
    const std::size_t i = seen++;
    const std::size_t want = i % 2 == 0 ? length - i : length;
    right = right && name.size() == want && (want == 0 || (name.front() == 'a' && name.back() == 'a'));
  });
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(seen, count);
  EXPECT_TRUE(right);
  // The same table without the final NUL: unterminated.
  b.back() = std::byte{'a'};
  EXPECT_NE(error_of(algos::detail::read_elf(b)).find("unterminated"), std::string::npos);
}
