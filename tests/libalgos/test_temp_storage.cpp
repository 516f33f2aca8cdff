// The closed-form temp-storage size must equal what CUB's own merge-sort dispatch
// (CCCL 3.5's cub::detail::merge_sort::dispatch, driven through our runtime policy) answers, for every key / value /
// offset combination, several policies and many sizes. No GPU needed: the dispatch's
// size path makes no driver call.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "merge_sort/dispatch.hpp"

// The operator argument of a stateless operator (core/launch.hpp).
static const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

namespace {

using cccl_cache::algos::ScalarType;
namespace d = cccl_cache::algos::merge_sort::detail;

// An sm_90 device as bind fixes it (the size path only reads the CC).
const cccl_cache::algos::detail::LaunchContext kSm90 = [] {
  cccl_cache::algos::detail::LaunchContext c;
  c.ptx_version = 900;
  c.dependent_launch = true;
  return c;
}();

d::DispatchParams policy(int threads, int items_per_thread, std::uint64_t bs_vsmem,
                         std::uint64_t merge_vsmem) {
  d::DispatchParams p;
  p.launch = &kSm90;
  p.policy.block_threads = static_cast<std::uint32_t>(threads);
  p.policy.items_per_tile = static_cast<std::uint32_t>(threads * items_per_thread);
  p.policy.block_sort_vsmem_per_block = bs_vsmem;
  p.policy.merge_vsmem_per_block = merge_vsmem;
  return p;
}

std::vector<std::uint64_t> sizes_for(ScalarType offset) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t n = 0; n <= 40; ++n) sizes.push_back(n);
  for (std::uint64_t n :
       {97ull,      255ull,           256ull,      257ull,     1023ull,    2047ull,
        2048ull,    2049ull,          4351ull,     4352ull,    4353ull,    7679ull,
        7680ull,    7681ull,          65521ull,    65536ull,   65537ull,   1000003ull,
        1ull << 20, (1ull << 20) + 1, 16777213ull, 1ull << 24, 1ull << 26, (1ull << 28) + 3})
    sizes.push_back(n);
  sizes.push_back(std::numeric_limits<std::int32_t>::max());
  if (offset != ScalarType::int32) {
    sizes.push_back(1ull << 31);
    sizes.push_back((1ull << 31) + 5);
    sizes.push_back(std::numeric_limits<std::uint32_t>::max());
  }
  if (offset == ScalarType::int64 || offset == ScalarType::uint64) {
    sizes.push_back((1ull << 32) + 17);
    sizes.push_back((1ull << 40) + 3);
  }
  return sizes;
}

std::uint64_t max_items(ScalarType offset) {
  switch (offset) {
    case ScalarType::int32:
      return std::numeric_limits<std::int32_t>::max();
    case ScalarType::uint32:
      return std::numeric_limits<std::uint32_t>::max();
    case ScalarType::int64:
      return std::numeric_limits<std::int64_t>::max();
    default:
      return std::numeric_limits<std::uint64_t>::max();
  }
}

// A size query through `fn` (CUB's dispatch or the executables' closed form).
std::size_t answer(d::DispatchFn fn, const d::DispatchParams& p, std::uint64_t n, CUresult& rc) {
  std::size_t bytes = 12345;  // must be overwritten
  rc = fn(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, nullptr, kNoState);
  return bytes;
}

// The closed form's answer for 4-byte keys, or 0 where it refuses the count.
std::size_t closed_bytes(std::size_t value, ScalarType offset, const d::DispatchParams& p,
                         std::uint64_t n) {
  CUresult rc = CUDA_ERROR_UNKNOWN;
  const std::size_t bytes = answer(d::select_dispatch(4, value, offset), p, n, rc);
  return rc == CUDA_SUCCESS ? bytes : 0;
}

TEST(TempStorage, ClosedFormEqualsCubDispatchForEveryCombination) {
  const std::vector<d::DispatchParams> policies = {
      policy(256, 17, 0, 0),  // CUB's sm_60+ policy for 4-byte keys
      policy(512, 15, 0, 0),  // CUB's sm_52 policy
      policy(256, 11, 0, 0),
      policy(64, 3, 0, 0),
      policy(256, 8, 0, 0),  // 8-byte keys
  };
  int checked = 0;
  // Every size a key or value may have: the scalars' and the structs' (kStructSizes).
  std::vector<std::size_t> values = {0};
  for (const std::uint32_t n : cccl_cache::algos::merge_sort::kStructSizes) values.push_back(n);
  for (const std::uint32_t key : cccl_cache::algos::merge_sort::kStructSizes) {
    for (const std::size_t value : values) {
      for (ScalarType offset :
           {ScalarType::int32, ScalarType::uint32, ScalarType::int64, ScalarType::uint64}) {
        const d::DispatchFn fn = d::select_dispatch(key, value, offset, /*closed_form=*/false);
        const d::DispatchFn closed = d::select_dispatch(key, value, offset);
        ASSERT_NE(fn, nullptr) << key << "/" << value;
        ASSERT_NE(closed, nullptr) << key << "/" << value;
        for (const auto& p : policies) {
          for (std::uint64_t n : sizes_for(offset)) {
            CUresult rc = CUDA_ERROR_UNKNOWN, closed_rc = CUDA_ERROR_UNKNOWN;
            const std::size_t expected = answer(fn, p, n, rc);
            ASSERT_EQ(rc, CUDA_SUCCESS);
            ASSERT_EQ(answer(closed, p, n, closed_rc), expected)
                << "key " << key << " value " << value << " offset " << static_cast<int>(offset)
                << " tile " << p.policy.items_per_tile << " vsmem "
                << p.policy.block_sort_vsmem_per_block << " n " << n;
            ASSERT_EQ(closed_rc, CUDA_SUCCESS);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(TempStorage, MatchesNvccBuiltCubForFloatKeys) {
  // cub::DeviceMergeSort (nvcc, sm_90) asks 8,703 bytes for 2,048 float keys with
  // 64-bit offsets (256 threads x 17 items), as measured on the H200 (DESIGN-NOTES).
  const auto p = policy(256, 17, 0, 0);
  EXPECT_EQ(closed_bytes(0, ScalarType::int64, p, 2048), 8703u);
  // By hand: 2 partitions * 8 B -> 256; 2,048 * 4 B = 8,192; + 255 slack.
  EXPECT_EQ(closed_bytes(0, ScalarType::int64, p, 2048), 256u + 8192u + 255u);
  // Zero items: CUB asks for one byte (a non-null pointer marks the second phase).
  EXPECT_EQ(closed_bytes(0, ScalarType::int64, p, 0), 1u);
}

// CCCL 3.5's dispatch with run-time policies allocates no virtual shared memory: a
// policy that needs it (never one of the supported key/value sizes) is refused by the
// dispatch and by the closed form.
TEST(TempStorage, PoliciesNeedingVirtualSharedMemoryAreRefused) {
  for (const auto& p : {policy(128, 7, 20480, 18432), policy(64, 1, 1000, 0),
                        policy(64, 1, 0, 4096)}) {
    EXPECT_FALSE(d::policy_supported(p));
    for (const d::DispatchFn fn :
         {d::select_dispatch(4, 4, ScalarType::int64, /*closed_form=*/false),
          d::select_dispatch(4, 4, ScalarType::int64)}) {
      for (std::uint64_t n : {1000u, 0u}) {
        CUresult rc = CUDA_SUCCESS;
        answer(fn, p, n, rc);
        EXPECT_EQ(rc, CUDA_ERROR_NOT_SUPPORTED);
      }
    }
  }
  d::DispatchParams bad_shape = policy(256, 17, 0, 0);
  bad_shape.policy.items_per_tile += 1;  // not whole threads
  EXPECT_FALSE(d::policy_supported(bad_shape));
  EXPECT_TRUE(d::policy_supported(policy(256, 17, 0, 0)));
}

TEST(TempStorage, CountBeyondOffsetTypeIsRejected) {
  const auto p = policy(256, 17, 0, 0);
  for (ScalarType offset : {ScalarType::int32, ScalarType::uint32}) {
    const std::uint64_t too_many = max_items(offset) + 1;
    for (const d::DispatchFn fn : {d::select_dispatch(4, 4, offset, /*closed_form=*/false),
                                   d::select_dispatch(4, 4, offset)}) {
      CUresult rc = CUDA_SUCCESS;
      answer(fn, p, too_many, rc);
      EXPECT_EQ(rc, CUDA_ERROR_INVALID_VALUE);
    }
    EXPECT_GT(closed_bytes(4, offset, p, max_items(offset)), 0u);
  }
}

TEST(TempStorage, TooSmallTempStorageIsInvalidValue) {
  // The sort path checks the size before any launch: a fake pointer never reaches the driver.
  const auto p = policy(256, 17, 0, 0);
  const d::DispatchFn fn = d::select_dispatch(4, 0, ScalarType::int64);
  std::size_t bytes = closed_bytes(0, ScalarType::int64, p, 5000) - 1;
  alignas(256) static unsigned char fake[1];
  EXPECT_EQ(fn(p, fake, bytes, fake, nullptr, fake, nullptr, 5000, nullptr, kNoState),
            CUDA_ERROR_INVALID_VALUE);
}

TEST(TempStorage, UnsupportedSizesHaveNoDispatch) {
  EXPECT_EQ(d::select_dispatch(3, 0, ScalarType::int64), nullptr);
  EXPECT_EQ(d::select_dispatch(20, 0, ScalarType::int64), nullptr);
  EXPECT_EQ(d::select_dispatch(4, 3, ScalarType::int64), nullptr);
  EXPECT_EQ(d::select_dispatch(4, 20, ScalarType::int64), nullptr);  // sizes outside kStructSizes
  EXPECT_EQ(d::select_dispatch(4, 0, ScalarType::float32), nullptr);
  EXPECT_EQ(d::select_dispatch(4, 0, ScalarType::none), nullptr);
}

}  // namespace
