// Merge sort's own record checks: an entry is trusted no further than its cubin.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "elf_craft.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using merge_sort::BuildResult;
using merge_sort::Spec;

namespace {

const BuildResult& built() {
  const auto& r = test_support::cached_build(Spec{}, 90);
  if (!r) throw std::runtime_error(r.error().describe());
  return r->result;
}

// Serializes the built result after a change: well-formed bytes, inconsistent content.
std::vector<std::byte> with(const std::function<void(BuildResult&)>& change) {
  BuildResult copy = built();
  change(copy);
  copy.record.values = policy_values(copy.policy);
  return serialize(copy);
}

}  // namespace

// An entry is trusted no further than its cubin: kernel names that are swapped (each
// still a kernel of the cubin) or a policy that differs from the launch bounds the
// kernels were compiled with pass the checksum (re-serialized here) and must still be
// rejected, on the copying and the borrowing path alike.
TEST(MergeSortRecord, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  struct Case {
    const char* what;
    std::function<void(BuildResult&)> change;
    const char* error;
  };
  const auto rotate = [](BuildResult& r) {
    std::swap(r.record.kernels[0], r.record.kernels[1]);
    std::swap(r.record.kernels[1], r.record.kernels[2]);
  };
  const Case cases[] = {
      {"block sort and merge swapped",
       [](BuildResult& r) { std::swap(r.record.kernels[0], r.record.kernels[2]); },
       "does not name a merge sort block sort kernel"},
      {"partition and merge swapped",
       [](BuildResult& r) { std::swap(r.record.kernels[1], r.record.kernels[2]); },
       "does not name a merge sort partition kernel"},
      {"all three rotated", rotate, "does not name a merge sort"},
      {"one kernel named twice",
       [](BuildResult& r) { r.record.kernels[2] = r.record.kernels[0]; },
       "does not name a merge sort merge kernel"},
      {"block_threads doubled",
       [](BuildResult& r) {
         r.policy.block_threads *= 2;
         r.policy.items_per_tile *= 2;
       },
       "was compiled for at most"},
      {"block_threads halved",
       [](BuildResult& r) {
         r.policy.block_threads /= 2;
         r.policy.items_per_tile /= 2;
       },
       "was compiled for at most"},
  };
  for (const auto& c : cases) {
    const auto blob = with(c.change);
    auto r = deserialize_view<MergeSort>(blob, 90);
    ASSERT_FALSE(r) << c.what;
    EXPECT_EQ(r.error().code, ErrorCode::corrupt) << c.what;
    EXPECT_NE(r.error().message.find(c.error), std::string::npos)
        << c.what << ": " << r.error().message;
    EXPECT_FALSE(deserialize<MergeSort>(blob)) << c.what;
  }
}

// The same from the cubin's side: the policy stays, the cubin's records change.
TEST(MergeSortRecord, CubinsDisagreeingWithTheirEntryAreCorrupt) {
  namespace craft = test_support::elf;
  const BuildResult& r = built();
  auto info = craft::find_section(r.record.cubin, ".nv.info." + r.record.kernels[2]);
  ASSERT_TRUE(info);
  std::optional<std::size_t> max_threads;
  for (std::size_t at = info->offset; at < info->offset + info->size;) {
    const auto format = craft::get(r.record.cubin, at, 1);
    if (format == 4 && craft::get(r.record.cubin, at + 1, 1) == 0x05) max_threads = at;
    at += format == 4 ? 4 + craft::get(r.record.cubin, at + 2, 2) : 4;
  }
  ASSERT_TRUE(max_threads);
  const auto sym = craft::find_symbol(r.record.cubin, r.record.kernels[1]);
  ASSERT_TRUE(sym);
  ASSERT_EQ(r.policy.block_sort_vsmem_per_block, 0u);  // float keys: the tile fits
  auto shared = craft::find_section(r.record.cubin, ".nv.shared." + r.record.kernels[0]);
  ASSERT_TRUE(shared);
  struct Case {
    const char* what;
    std::function<void(std::vector<std::byte>&)> change;
    const char* error;
  };
  const Case cases[] = {
      {"merge kernel's launch bounds altered",
       [&](std::vector<std::byte>& c) { craft::put(c, *max_threads + 4, 1024, 4); },
       "merge kernel"},
      {"merge kernel's launch bounds removed",
       [&](std::vector<std::byte>& c) { craft::put(c, *max_threads + 1, 0x7e, 1); },
       "carries no launch bounds"},
      {"partition kernel not an entry point",
       [&](std::vector<std::byte>& c) { c[*sym + 5] &= std::byte{0xef}; },
       "is not a kernel entry point"},
      {"block sort kernel without its shared memory",
       [&](std::vector<std::byte>& c) { craft::put(c, shared->header + 32, 0, 8); },
       "no static shared memory"},
      {"block sort kernel with too much shared memory",
       [&](std::vector<std::byte>& c) { craft::put(c, shared->header + 32, 64 * 1024, 8); },
       "bytes of static shared memory"},
  };
  for (const auto& c : cases) {
    auto blob = with([&](BuildResult& b) { c.change(b.record.cubin); });
    auto got = deserialize<MergeSort>(blob, 90);
    ASSERT_FALSE(got) << c.what;
    EXPECT_EQ(got.error().code, ErrorCode::corrupt) << c.what;
    EXPECT_NE(got.error().message.find(c.error), std::string::npos)
        << c.what << ": " << got.error().message;
  }
}
