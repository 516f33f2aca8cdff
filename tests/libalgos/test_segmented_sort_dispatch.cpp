// segmented_sort's host side without a GPU: spec validation and spec text; the
// closed-form temp-storage size against CCCL 3.5's own dispatch (its size path makes no
// driver call) for many (items, segments) counts; and the hot
// path: a call allocates nothing and reaches the driver only through the launch, copy and
// synchronize pointers fixed at bind (recorders here; the kernels are stand-in handles and
// device pointers are never dereferenced).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "closed_form_support.hpp"
#include "hot_path_support.hpp"
#include "segmented_sort/dispatch.hpp"
#include "segmented_sort_policy_reference.hpp"
#include "spec_cases.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::segmented_sort::detail;
using segmented_sort::Spec;

CUfunction fn(std::size_t k) { return reinterpret_cast<CUfunction>(0x5000 + k); }

detail::LaunchContext bound(const segmented_sort::Policy& p, int cc,
                            decltype(&::cuLaunchKernelEx) launch = &record_launch) {
  detail::LaunchContext c = h200_context(launch, cc * 10);
  c.num_kernels = segmented_sort::kKernelCount;
  const auto threads = d::launch_threads(p);
  for (std::size_t i = 0; i < c.num_kernels; ++i) c.kernels[i] = {fn(i), int(threads[i]), 2, 0};
  return c;
}

// The group sizes the recording copy writes (large, small), and the copies and waits seen.
std::uint32_t g_groups[2] = {0, 0};
int g_copies = 0, g_syncs = 0;
CUresult record_copy(void* dst, CUdeviceptr, std::size_t bytes, CUstream) {
  ++g_copies;
  if (bytes != sizeof g_groups) return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(dst, g_groups, bytes);  // the host array CUB reads
  return CUDA_SUCCESS;
}
CUresult record_sync(CUstream) {
  ++g_syncs;
  return CUDA_SUCCESS;
}

Spec spec_of(ScalarType key, ScalarType value, ScalarType offset) {
  Spec s;
  s.key_type = key, s.value_type = value, s.offset_type = offset;
  return s;
}

}  // namespace

TEST(SegmentedSortSpec, ValidatesEveryField) {
  EXPECT_TRUE(Spec{}.validate());
  using S = ScalarType;
  const SpecCase<Spec> cases[] = {
      {{S::uint8, S::none, false, S::int32}, true, ""},
      {{S::float64, S::int64, true, S::uint64}, true, ""},
      {{S::float16, S::bfloat16, false, S::int64}, true, ""},
      {{S::none, S::none, false, S::int32}, false, "keys"},
      {{static_cast<S>(99), S::none, false, S::int32}, false, "keys"},
      {{S::int32, static_cast<S>(77), false, S::int32}, false, "values"},
      {{S::int32, S::none, false, S::int16}, false, "offset"},
      {{S::int32, S::none, false, S::float32}, false, "offset"},
  };
  expect_validation<Spec>(cases);
}

TEST(SegmentedSortSpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("segmented_sort");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text(
      {{"keys", "uint16", {}}, {"values", "float64", {}}, {"descending", "true", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec), "segmented_sort keys=uint16 values=float64 descending=true offset=int32");
  auto bad = entry->from_text({{"keys", "int32", {}}, {"offset", "int8", {}}});
  ASSERT_FALSE(bad);
  EXPECT_FALSE(entry->from_text({{"values", "int32", {}}}));  // keys are required
}

// CUB's selectors on the host, for the CCs whose tunings differ.
TEST(SegmentedSortPolicy, HostSelectionIsPlausible) {
  for (const std::uint32_t cc : {80u, 86u, 90u, 100u}) {
    const auto p = test_support::cub_segmented_sort_policy(spec_of(ScalarType::float32, ScalarType::none, ScalarType::int32), cc);
    EXPECT_EQ(p.large_threads, 256u);
    EXPECT_EQ(p.radix_bits, 6u);
    EXPECT_EQ(p.partitioning_threshold, 500u);
    EXPECT_GT(p.partition_threads * p.partition_items, 0u);
    EXPECT_EQ(p.small_threads % p.small_warp_threads, 0u);
  }
}

TEST(SegmentedSortTempStorage, ClosedFormEqualsCubDispatch) {
  const std::uint64_t segment_counts[] = {0,   1,    2,    499,  500,         501,
                                          502, 4096, 1u << 20, (1ull << 31) - 2,
                                          (1ull << 31) - 1, 1ull << 31, (1ull << 32) + 5};
  int compared = 0;
  for (const std::uint32_t cc : {80u, 86u, 90u})
    for (const std::size_t key : {1u, 2u, 4u, 8u})
      for (const std::size_t value : {0u, 1u, 4u, 8u})
        for (const ScalarType offset : {ScalarType::int32, ScalarType::uint64}) {
          const ScalarType key_type = key == 1 ? ScalarType::uint8 : key == 2 ? ScalarType::int16
                                      : key == 4 ? ScalarType::float32 : ScalarType::float64;
          const ScalarType value_type = value == 0 ? ScalarType::none : value == 1 ? ScalarType::int8
                                        : value == 4 ? ScalarType::int32 : ScalarType::int64;
          const auto p = test_support::cub_segmented_sort_policy(spec_of(key_type, value_type, offset), cc);
          const auto ctx = bound(p, int(cc));
          const d::DispatchParams params{&ctx, p};
          const auto ours = d::select_dispatch(key, value, offset);
          const auto cub = d::select_dispatch(key, value, offset, /*closed_form=*/false);
          ASSERT_NE(ours, nullptr);
          ASSERT_NE(cub, nullptr);
          for (const std::uint64_t n : item_counts({std::uint64_t{INT32_MAX}}))
            for (const std::uint64_t segments : segment_counts) {
              std::size_t a = 7, b = 9;
              ASSERT_EQ(ours(params, nullptr, a, nullptr, nullptr, nullptr, nullptr, n, segments,
                             nullptr, nullptr, nullptr),
                        CUDA_SUCCESS);
              ASSERT_EQ(cub(params, nullptr, b, nullptr, nullptr, nullptr, nullptr, n, segments,
                            nullptr, nullptr, nullptr),
                        CUDA_SUCCESS);
              ASSERT_EQ(a, b) << "cc " << cc << " key " << key << " value " << value << " n " << n
                              << " segments " << segments;
              ++compared;
            }
        }
  EXPECT_GT(compared, 10000);
}

TEST(SegmentedSortTempStorage, CountsAboveInt64AreRefused) {
  const auto p = test_support::cub_segmented_sort_policy(Spec{}, 90);
  const auto ctx = bound(p, 90);
  const d::DispatchParams params{&ctx, p};
  const auto ours = d::select_dispatch(4, 0, ScalarType::int32);
  std::size_t bytes = 0;
  EXPECT_EQ(ours(params, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 1ull << 63, 1, nullptr,
                 nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(ours(params, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 1, 1ull << 63, nullptr,
                 nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(d::select_dispatch(3, 0, ScalarType::int32), nullptr);
  EXPECT_EQ(d::select_dispatch(4, 0, ScalarType::int16), nullptr);
}

namespace {
struct SegmentedSortHotPath : ::testing::Test {
  segmented_sort::Policy p = test_support::cub_segmented_sort_policy(spec_of(ScalarType::float32, ScalarType::int32,
                                                        ScalarType::int32), 90);
  detail::LaunchContext ctx = bound(p, 90);
  void* keys = device_address(0x7f0000000000);
  void* out = device_address(0x7f0800000000);
  void* begin = device_address(0x7f1000000000);
  void* end = device_address(0x7f1800000000);
  void* temp = device_address(0x7f2000000000);

  void SetUp() override {
    ctx.memcpy = &record_copy;
    ctx.synchronize = &record_sync;
    g_copies = g_syncs = 0;
  }
  // Sorts n pairs in `segments` segments with allocations counted; the launches seen.
  const std::vector<Launch>& sort(std::uint64_t n, std::uint64_t segments) {
    const d::DispatchParams params{&ctx, p};
    const auto dispatch = d::select_dispatch(4, 4, ScalarType::int32);
    std::size_t bytes = 0;
    EXPECT_EQ(dispatch(params, nullptr, bytes, keys, out, keys, out, n, segments, begin, end, nullptr),
              CUDA_SUCCESS);
    launches().clear();
    const auto [rc, allocations] = count_allocations([&] {
      return dispatch(params, temp, bytes, keys, out, keys, out, n, segments, begin, end, nullptr);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the sort path allocated";
    return launches();
  }
};
}  // namespace

TEST_F(SegmentedSortHotPath, FewSegmentsLaunchTheFallbackKernelOnce) {
  const auto& seen = sort(1 << 20, 100);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].fn, fn(segmented_sort::fallback));
  EXPECT_EQ(seen[0].grid_x, 100u);  // one block per segment
  EXPECT_EQ(seen[0].block_x, p.large_threads);
  EXPECT_EQ(g_copies + g_syncs, 0);
}

TEST_F(SegmentedSortHotPath, ManySegmentsArePartitionedAndTheGroupSizesReadThroughTheDriver) {
  g_groups[0] = 3, g_groups[1] = 5000;  // large, small; the rest (4997) medium
  const std::uint64_t segments = 10000;
  const auto& seen = sort(1 << 22, segments);
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(g_copies, 1);
  EXPECT_EQ(g_syncs, 1);
  EXPECT_EQ(seen[0].fn, fn(segmented_sort::partition_init));
  EXPECT_EQ(seen[1].fn, fn(segmented_sort::partition));
  EXPECT_EQ(seen[1].block_x, p.partition_threads);
  EXPECT_EQ(seen[2].fn, fn(segmented_sort::large));
  EXPECT_EQ(seen[2].grid_x, 3u);
  EXPECT_EQ(seen[3].fn, fn(segmented_sort::small));
  const std::uint32_t small_per_block = p.small_threads / p.small_warp_threads;
  const std::uint32_t medium_per_block = p.medium_threads / p.medium_warp_threads;
  EXPECT_EQ(seen[3].grid_x, (5000 + small_per_block - 1) / small_per_block +
                                (4997 + medium_per_block - 1) / medium_per_block);
  EXPECT_EQ(seen[3].block_x, p.small_threads);
}

TEST_F(SegmentedSortHotPath, EmptyInputsLaunchNothingAndSmallTempStorageIsRefused) {
  EXPECT_TRUE(sort(0, 10).empty());
  EXPECT_TRUE(sort(10, 0).empty());
  const d::DispatchParams params{&ctx, p};
  const auto dispatch = d::select_dispatch(4, 4, ScalarType::int32);
  std::size_t bytes = 16;
  launches().clear();
  EXPECT_EQ(dispatch(params, temp, bytes, keys, out, keys, out, 1000, 10, begin, end, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(launches().empty());
}

TEST_F(SegmentedSortHotPath, ALaunchErrorIsReturned) {
  ctx.launch = &failing_launch;
  const d::DispatchParams params{&ctx, p};
  const auto dispatch = d::select_dispatch(4, 4, ScalarType::int32);
  std::size_t bytes = 0;
  ASSERT_EQ(dispatch(params, nullptr, bytes, keys, out, keys, out, 1000, 10, begin, end, nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(dispatch(params, temp, bytes, keys, out, keys, out, 1000, 10, begin, end, nullptr),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}
