// The hot path of a bound merge sort: what Executable::operator() runs after bind
// (CUB's DispatchMergeSort over the bound handles) must allocate nothing and reach
// the driver only through the cuLaunchKernelEx pointer fixed at bind time. Here that
// pointer is a recorder, the kernels are stand-in handles and the device pointers
// are never dereferenced by the host code, so no GPU (and no driver) is needed: any
// other driver or runtime call would fail on this machine and show up as an error.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "merge_sort/dispatch.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

// Counts every allocation of this test binary while g_counting is set.
void* operator new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using cccl_cache::algos::ScalarType;
namespace d = cccl_cache::algos::merge_sort::detail;

struct Launch {
  CUfunction fn;
  unsigned grid_x, block_x;
  unsigned num_attrs;
};
// Reserved up front: recording must not allocate while allocations are counted.
std::vector<Launch>& launches() {
  static std::vector<Launch> v = [] {
    std::vector<Launch> r;
    r.reserve(256);
    return r;
  }();
  return v;
}

CUresult record_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr || params[0] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  launches().push_back({fn, config->gridDimX, config->blockDimX, config->numAttrs});
  return CUDA_SUCCESS;
}

const CUfunction kBlockSort = reinterpret_cast<CUfunction>(0x1001);
const CUfunction kPartition = reinterpret_cast<CUfunction>(0x1002);
const CUfunction kMerge = reinterpret_cast<CUfunction>(0x1003);

// What bind fixes (core/launch.hpp), with the recorder as the driver's launch.
cccl_cache::algos::detail::LaunchContext bound_context(decltype(&::cuLaunchKernelEx) launch) {
  cccl_cache::algos::detail::LaunchContext c;
  c.launch = launch;
  c.ptx_version = 900;
  c.dependent_launch = true;
  c.sm_count = 132;
  c.num_kernels = 3;
  c.kernels[0] = {kBlockSort, 256, 1, 0};
  c.kernels[1] = {kPartition, 256, 1, 0};
  c.kernels[2] = {kMerge, 256, 1, 0};
  return c;
}
const cccl_cache::algos::detail::LaunchContext kRecording = bound_context(&record_launch);

d::DispatchParams bound_params() {
  d::DispatchParams p;
  p.launch = &kRecording;
  p.block_threads = 256;
  p.items_per_tile = 256 * 17;  // CUB's float32 policy on sm_90
  return p;
}

struct Case {
  std::uint64_t items;
  unsigned tiles;
  int passes;  // merge passes: ceil(log2(tiles))
};

TEST(HotPath, SortLaunchesOnlyTheBoundKernelsAndAllocatesNothing) {
  const d::DispatchParams p = bound_params();
  const d::DispatchFn sort = d::select_dispatch(4, 0, ScalarType::int64);
  ASSERT_NE(sort, nullptr);
  const d::TempLayout layout = d::make_layout(4, 0, ScalarType::int64, p);
  // Device addresses the host code only passes on.
  void* keys = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  void* temp = reinterpret_cast<void*>(std::uintptr_t{0x7f1000000000});
  for (const Case c : {Case{2048, 1, 0}, Case{4353, 2, 1}, Case{1'000'003, 230, 8}}) {
    SCOPED_TRACE(c.items);
    launches().clear();
    std::size_t bytes = layout.bytes(c.items);
    g_allocations = 0;
    g_counting = true;
    const CUresult rc = sort(p, temp, bytes, keys, nullptr, keys, nullptr, c.items, nullptr);
    g_counting = false;
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(g_allocations.load(), 0) << "the sort path allocated";
    const auto& seen = launches();
    ASSERT_EQ(seen.size(), 1u + 2u * static_cast<unsigned>(c.passes));
    EXPECT_EQ(seen[0].fn, kBlockSort);
    EXPECT_EQ(seen[0].grid_x, c.tiles);
    EXPECT_EQ(seen[0].block_x, 256u);
    for (std::size_t i = 1; i < seen.size(); i += 2) {
      EXPECT_EQ(seen[i].fn, kPartition);
      EXPECT_EQ(seen[i].block_x, 256u);
      EXPECT_EQ(seen[i + 1].fn, kMerge);
      EXPECT_EQ(seen[i + 1].grid_x, c.tiles);
    }
    for (const Launch& l : seen) EXPECT_EQ(l.num_attrs, 1u) << "programmatic dependent launch";
  }
}

TEST(HotPath, TempStorageQueryAllocatesAndLaunchesNothing) {
  const d::DispatchParams p = bound_params();
  const d::DispatchFn sort = d::select_dispatch(8, 4, ScalarType::uint32);
  ASSERT_NE(sort, nullptr);
  launches().clear();
  std::size_t bytes = 0;
  g_allocations = 0;
  g_counting = true;
  const CUresult rc = sort(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 2048, nullptr);
  g_counting = false;
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_GT(bytes, 0u);
  EXPECT_EQ(g_allocations.load(), 0);
  EXPECT_TRUE(launches().empty());
}

TEST(HotPath, ALaunchErrorIsReturnedAndStopsTheSort) {
  d::DispatchParams p = bound_params();
  const auto failing = bound_context([](const CUlaunchConfig*, CUfunction, void**, void**) -> CUresult {
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  });
  p.launch = &failing;
  const d::DispatchFn sort = d::select_dispatch(4, 0, ScalarType::int64);
  const d::TempLayout layout = d::make_layout(4, 0, ScalarType::int64, p);
  std::size_t bytes = layout.bytes(1'000'003);
  void* dev = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  EXPECT_EQ(sort(p, dev, bytes, dev, nullptr, dev, nullptr, 1'000'003, nullptr),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

}  // namespace
