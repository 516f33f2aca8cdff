// The hot path of a bound merge sort: what Executable::operator() runs after bind
// (CUB's DispatchMergeSort over the bound handles) must allocate nothing and reach
// the driver only through the cuLaunchKernelEx pointer fixed at bind time. Here that
// pointer is a recorder, the kernels are stand-in handles and the device pointers
// are never dereferenced by the host code, so no GPU (and no driver) is needed: any
// other driver or runtime call would fail on this machine and show up as an error.
#include <gtest/gtest.h>

#include <cstdint>

#include "hot_path_support.hpp"
#include "merge_sort/dispatch.hpp"

// The operator argument of a stateless operator (core/launch.hpp).
static const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

namespace {

using namespace test_support;
using cccl_cache::algos::ScalarType;
namespace d = cccl_cache::algos::merge_sort::detail;

const CUfunction kBlockSort = reinterpret_cast<CUfunction>(0x1001);
const CUfunction kPartition = reinterpret_cast<CUfunction>(0x1002);
const CUfunction kMerge = reinterpret_cast<CUfunction>(0x1003);

// What bind fixes (core/launch.hpp), with the recorder as the driver's launch.
cccl_cache::algos::detail::LaunchContext bound_context(decltype(&::cuLaunchKernelEx) launch) {
  auto c = h200_context(launch);
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
  p.policy.block_threads = 256;
  p.policy.items_per_tile = 256 * 17;  // CUB's float32 policy on sm_90
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
  // Device addresses the host code only passes on.
  void* keys = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  void* temp = reinterpret_cast<void*>(std::uintptr_t{0x7f1000000000});
  for (const Case c : {Case{2048, 1, 0}, Case{4353, 2, 1}, Case{1'000'003, 230, 8}}) {
    SCOPED_TRACE(c.items);
    launches().clear();
    std::size_t bytes = 0;
    ASSERT_EQ(sort(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, c.items, nullptr, kNoState),
              CUDA_SUCCESS);
    const auto [rc, allocations] =
        count_allocations([&] { return sort(p, temp, bytes, keys, nullptr, keys, nullptr, c.items, nullptr, kNoState); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the sort path allocated";
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
  const auto [rc, allocations] = count_allocations(
      [&] { return sort(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 2048, nullptr, kNoState); });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_GT(bytes, 0u);
  EXPECT_EQ(allocations, 0);
  EXPECT_TRUE(launches().empty());
}

TEST(HotPath, ALaunchErrorIsReturnedAndStopsTheSort) {
  d::DispatchParams p = bound_params();
  const auto failing = bound_context(&failing_launch);
  p.launch = &failing;
  const d::DispatchFn sort = d::select_dispatch(4, 0, ScalarType::int64);
  std::size_t bytes = 0;
  ASSERT_EQ(sort(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 1'000'003, nullptr, kNoState),
            CUDA_SUCCESS);
  void* dev = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  EXPECT_EQ(sort(p, dev, bytes, dev, nullptr, dev, nullptr, 1'000'003, nullptr, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

// The block-sort launch's input arguments as the driver got them: the addresses its
// params hold for the key and value inputs, the first word at the values' (read at the
// launch: a pointer argument's copy is gone after it), and the output keys' pointer.
struct InputRecord : Launch {
  const void* keys_in_arg = nullptr;
  const void* values_in_arg = nullptr;
  void* values_in_word = nullptr;
  void* keys_out = nullptr;
};
CUresult record_inputs(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  InputRecord r{launch_of(config, fn)};
  if (fn == kBlockSort) {  // (ping, keys in, values in, keys out, ...)
    for (int i = 0; i < 4; ++i)
      if (params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
    r.keys_in_arg = params[1];
    r.values_in_arg = params[2];
    r.values_in_word = *static_cast<void**>(params[2]);
    r.keys_out = *static_cast<void**>(params[3]);
  }
  recorded<InputRecord>().push_back(r);
  return CUDA_SUCCESS;
}

TEST(HotPath, InputIteratorsAreReadAsTheirPackedBytes) {
  // The iterator dispatch hands the kernels the call's packed bytes where they lie (the
  // driver copies them at the launch); a keys-only sort passes no values.
  const auto context = bound_context(&record_inputs);
  d::DispatchParams p = bound_params();
  p.launch = &context;
  alignas(16) unsigned char keys_packed[16] = {}, values_packed[16] = {};
  void* keys_out = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  void* temp = reinterpret_cast<void*>(std::uintptr_t{0x7f1000000000});
  for (const std::size_t value_size : {std::size_t{8}, std::size_t{0}}) {
    SCOPED_TRACE(value_size);
    const d::DispatchFn sort =
        d::select_dispatch(4, value_size, ScalarType::int64, /*closed_form=*/true, /*iterators=*/true);
    ASSERT_NE(sort, nullptr);
    std::size_t bytes = 0;
    ASSERT_EQ(sort(p, nullptr, bytes, keys_packed, values_packed, keys_out, keys_out, 4353, nullptr,
                   kNoState),
              CUDA_SUCCESS);
    recorded<InputRecord>().clear();
    const auto [rc, allocations] = count_allocations([&] {
      return sort(p, temp, bytes, keys_packed, values_packed, keys_out, keys_out, 4353, nullptr,
                  kNoState);
    });
    ASSERT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0);
    const auto& seen = recorded<InputRecord>();
    ASSERT_EQ(seen.size(), 3u);  // two tiles: block sort, one partition and merge pass
    EXPECT_EQ(seen[0].fn, kBlockSort);
    EXPECT_EQ(seen[0].keys_in_arg, static_cast<const void*>(keys_packed));
    EXPECT_EQ(seen[0].keys_out, keys_out);
    if (value_size != 0)
      EXPECT_EQ(seen[0].values_in_arg, static_cast<const void*>(values_packed));
    else
      EXPECT_EQ(seen[0].values_in_word, nullptr);
  }
  // No struct sizes: iterators read scalar keys and values.
  EXPECT_EQ(d::select_dispatch(16, 0, ScalarType::int64, true, true), nullptr);
  EXPECT_NE(d::select_dispatch(16, 0, ScalarType::int64, true, false), nullptr);
}

}  // namespace
