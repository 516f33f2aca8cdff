#include <gtest/gtest.h>

#include <random>

#include "build_cache.hpp"
#include "elf.hpp"

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
