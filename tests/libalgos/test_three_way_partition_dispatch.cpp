// three-way partition's host side without a GPU: spec validation and spec text; the
// closed-form temp-storage size against CCCL 3.5's own dispatch (its size path makes no
// driver call) for many counts; and the hot path: a call allocates nothing and reaches
// the driver only through the cuLaunchKernelEx pointer fixed at bind (a recorder here;
// the kernels are stand-in handles and device pointers are never dereferenced).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "closed_form_support.hpp"
#include "core/dispatch_abi.hpp"
#include "hot_path_support.hpp"
#include "spec_cases.hpp"
#include "three_way_partition/dispatch.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::three_way_partition::detail;
using three_way_partition::Spec;

const CUfunction kInit = reinterpret_cast<CUfunction>(0x6001);
const CUfunction kPartition = reinterpret_cast<CUfunction>(0x6002);

struct PartitionLaunch : Launch {
  int num_tiles;  // the init kernel's 2nd argument, the partition kernel's 10th
  int num_items;  // the partition kernel's 9th argument (its partition's items)
  const void* first_op = nullptr;   // the partition kernel's predicate argument pointers
  const void* second_op = nullptr;  // (7th and 8th)
  const void* items[4] = {};        // the input's and outputs' argument pointers (1st-4th)
};

// The operator argument of a stateless operator (core/launch.hpp).
const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

// Init kernel: tile state, tile count, counts. Partition kernel: input, three outputs,
// counts, tile state, two predicates, partition items, tile count, streaming context.
CUresult record_partition_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const int count = fn == kInit ? 3 : 11;
  for (int i = 0; i < count; ++i)
    if (params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (params[count] != nullptr) return CUDA_ERROR_INVALID_VALUE;
  PartitionLaunch l{launch_of(config, fn), 0, 0};
  std::memcpy(&l.num_tiles, params[fn == kInit ? 1 : 9], sizeof(int));
  if (fn == kPartition) {
    std::memcpy(&l.num_items, params[8], sizeof(int));
    l.first_op = params[6];
    l.second_op = params[7];
    for (int k = 0; k < 4; ++k) l.items[k] = params[k];
  }
  recorded<PartitionLaunch>().push_back(l);
  return CUDA_SUCCESS;
}

using LaunchContext = cccl_cache::algos::detail::LaunchContext;

LaunchContext context(decltype(&::cuLaunchKernelEx) launch, std::uint32_t threads = 320) {
  LaunchContext c = h200_context(launch);
  c.num_kernels = 2;
  c.kernels[0] = {kInit, 256, 8, 0};
  c.kernels[1] = {kPartition, static_cast<int>(threads), 4, 0};
  return c;
}

d::DispatchParams params(const LaunchContext* ctx, std::uint32_t threads = 320, std::uint32_t items = 12) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy.threads = threads;
  p.policy.items = items;
  return p;
}

// CUB's tile shapes for DevicePartition::If (sm_80 .. sm_100, 1..8-byte items).
constexpr std::pair<std::uint32_t, std::uint32_t> kPolicies[] = {
    {256, 9}, {256, 12}, {320, 12}, {384, 7}, {256, 11}, {224, 11}, {512, 11}, {768, 20}, {256, 23}};
constexpr std::uint64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

std::size_t closed_bytes(const d::DispatchParams& p, ScalarType offset, std::uint64_t n) {
  std::size_t bytes = 0;
  const d::DispatchFn fn = d::select_dispatch(offset);
  return fn(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n, nullptr, nullptr,
            nullptr) == CUDA_SUCCESS
             ? bytes
             : 0;
}

}  // namespace

TEST(ThreeWayPartitionSpec, ValidatesEveryField) {
  EXPECT_TRUE(Spec{}.validate());
  const auto id = Operator::of(OpKind::identity);
  const auto custom = Operator::custom("positive", "__device__ bool positive(float x) { return x > 0; }");
  using S = ScalarType;
  const SpecCase<Spec> cases[] = {
      {{S::float16, id, id, S::int64, S::int32}, true, ""},
      {{S::bfloat16, custom, id, S::int32, S::uint32}, true, ""},
      {{S::uint64, id, custom, S::int64, S::int64}, true, ""},
      {{S::none, id, id, S::int64, S::uint64}, false, "type"},
      {{static_cast<S>(99), id, id, S::int64, S::uint64}, false, "type"},
      {{S::int32, Operator::less(), id, S::int64, S::uint64}, false, "first_op"},
      {{S::int32, id, Operator::of(OpKind::negate), S::int64, S::uint64}, false, "second_op"},
      {{S::int32, id, Operator::custom("cccl_cache_x", "int x;"), S::int64, S::uint64}, false, "second_op"},
      {{S::int32, Operator::custom("f", " "), id, S::int64, S::uint64}, false, "first_op"},
      {{S::int32, id, id, S::uint64, S::uint64}, false, "offset"},
      {{S::int32, id, id, S::uint32, S::uint64}, false, "offset"},
      {{S::int32, id, id, S::int64, S::int16}, false, "selected"},
      {{S::int32, id, id, S::int64, S::float64}, false, "selected"},
  };
  expect_validation<Spec>(cases);
}

TEST(ThreeWayPartitionSpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("three_way_partition");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text({{"type", "float64", {}}, {"offset", "int32", {}}, {"selected", "int32", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec),
            "three_way_partition type=float64 first_op=identity second_op=identity offset=int32 "
            "selected=int32");
  auto custom = entry->from_text(
      {{"type", "int32", {}},
       {"first_op", "even", "__device__ bool even(int x) { return x % 2 == 0; }"},
       {"second_op", "small", "__device__ bool small(int x) { return x < 10; }"}});
  ASSERT_TRUE(custom) << custom.error().describe();
  EXPECT_EQ(spec_text(*custom),
            "three_way_partition type=int32 first_op=even second_op=small offset=int64 selected=uint64");
  auto bad = entry->from_text({{"type", "int32", {}}, {"second_op", "plus", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("second_op"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(entry->from_text({{"first_op", "identity", {}}}));  // type is required
}

// Many counts, CUB's tile shapes, both offset types: the closed form equals CUB's own
// dispatch's answer; counts the offset type cannot hold are refused by both.
TEST(ThreeWayPartitionTempStorage, ClosedFormEqualsCubDispatch) {
  const LaunchContext ctx = context(nullptr);
  int checked = 0;
  for (const auto [threads, items] : kPolicies) {
    const d::DispatchParams p = params(&ctx, threads, items);
    for (const ScalarType offset : {ScalarType::int32, ScalarType::int64}) {
      const d::DispatchFn closed = d::select_dispatch(offset);
      const d::DispatchFn cub = d::select_dispatch(offset, /*closed_form=*/false);
      ASSERT_NE(closed, nullptr);
      ASSERT_NE(cub, nullptr);
      const std::uint64_t max = offset == ScalarType::int32 ? kInt32Max : INT64_MAX;
      SCOPED_TRACE(std::to_string(threads) + "x" + std::to_string(items));
      checked += expect_closed_form_equals_cub(
          item_counts({kInt32Max, 2 * kInt32Max, 2 * kInt32Max + 1, std::uint64_t{threads} * items,
                       5 * (kInt32Max + 1) + 17}),
          max, [&](bool closed_form, std::uint64_t n, std::size_t& bytes) {
            return (closed_form ? closed : cub)(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n,
                                                nullptr, nullptr, nullptr);
          });
      std::size_t bytes = 0;
      EXPECT_EQ(closed(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, ~0ull,
                       nullptr, nullptr, nullptr),
                CUDA_ERROR_INVALID_VALUE);
    }
  }
  EXPECT_GT(checked, 2000);
  EXPECT_EQ(d::select_dispatch(ScalarType::uint32), nullptr);
  EXPECT_EQ(d::select_dispatch(ScalarType::uint64), nullptr);
}

// Each partition of at most INT32_MAX items: an init launch (256 threads, a block per 256
// tiles) then a partition launch (a block per tile); only the init launch for no items.
TEST(ThreeWayPartitionHotPath, LaunchesOnlyTheBoundKernelsAndAllocatesNothing) {
  const LaunchContext ctx = context(&record_partition_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(ScalarType::int64);
  void* dev = device_address(0x7f0000000000);
  constexpr std::uint64_t tile = 320 * 12;
  // A stateful first predicate's state, a stateless second: each predicate argument is
  // the address its kernel parameter is copied from (OpArg).
  const std::int32_t state = 3;
  for (std::uint64_t n : std::initializer_list<std::uint64_t>{0, 1, 3840, 3841, (1ull << 20) + 3, kInt32Max, kInt32Max + 5,
                          3 * kInt32Max + 1}) {
    SCOPED_TRACE(n);
    std::size_t bytes = 0;
    ASSERT_EQ(run(p, nullptr, bytes, dev, dev, dev, dev, dev, n, nullptr, nullptr, nullptr),
              CUDA_SUCCESS);
    recorded<PartitionLaunch>().clear();
    const auto [rc, allocations] = count_allocations(
        [&] { return run(p, dev, bytes, dev, dev, dev, dev, dev, n, nullptr, &state, kNoState); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the three-way partition path allocated";
    const auto& seen = recorded<PartitionLaunch>();
    const std::uint64_t parts = n == 0 ? 1 : (n + kInt32Max - 1) / kInt32Max;
    ASSERT_EQ(seen.size(), n == 0 ? 1u : 2 * parts);
    std::uint64_t covered = 0;
    for (std::size_t i = 0; i < seen.size(); i += 2) {
      const std::uint64_t items = n == 0 ? 0 : std::min<std::uint64_t>(n - covered, kInt32Max);
      const auto tiles = static_cast<int>((items + tile - 1) / tile);
      EXPECT_EQ(seen[i].fn, kInit);
      EXPECT_EQ(seen[i].block_x, 256u);
      EXPECT_EQ(seen[i].grid_x, static_cast<unsigned>(std::max(1, (tiles + 255) / 256)));
      EXPECT_EQ(seen[i].num_tiles, tiles);
      if (n == 0) break;
      EXPECT_EQ(seen[i + 1].fn, kPartition);
      EXPECT_EQ(seen[i + 1].block_x, 320u);
      EXPECT_EQ(seen[i + 1].grid_x, static_cast<unsigned>(tiles));
      EXPECT_EQ(seen[i + 1].num_items, static_cast<int>(items));
      EXPECT_EQ(seen[i + 1].num_attrs, 0u);
      EXPECT_EQ(seen[i + 1].first_op, &state);
      EXPECT_EQ(seen[i + 1].second_op, kNoState);
      covered += items;
    }
    EXPECT_EQ(covered, n);
  }
}

TEST(ThreeWayPartitionHotPath, BadCountsAndSmallTempStorageLaunchNothing) {
  const LaunchContext ctx = context(&record_partition_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  recorded<PartitionLaunch>().clear();
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(d::select_dispatch(ScalarType::int32)(p, dev, bytes, dev, dev, dev, dev, dev,
                                                  kInt32Max + 1, nullptr, kNoState, kNoState),
            CUDA_ERROR_INVALID_VALUE);
  std::size_t small = closed_bytes(p, ScalarType::int64, 1'000'000) - 1;
  EXPECT_EQ(d::select_dispatch(ScalarType::int64)(p, dev, small, dev, dev, dev, dev, dev, 1'000'000,
                                                  nullptr, kNoState, kNoState),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<PartitionLaunch>().empty());
}

TEST(ThreeWayPartitionHotPath, ALaunchErrorIsReturnedAndStopsTheCall) {
  const LaunchContext ctx = context(&failing_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  std::size_t bytes = closed_bytes(p, ScalarType::int64, 1000);
  EXPECT_EQ(d::select_dispatch(ScalarType::int64)(p, dev, bytes, dev, dev, dev, dev, dev, 1000,
                                                  nullptr, kNoState, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}


// Where the spec has an iterator, each of the input and outputs is its packed bytes,
// handed to the driver by address and the same at every partition's launch (the
// streaming context offsets the kernel's reads and writes); the array dispatch hands the
// arrays' pointers. No allocation.
TEST(ThreeWayPartitionHotPath, IteratorsArePassedAsTheirPackedBytes) {
  const LaunchContext ctx = context(&record_partition_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(ScalarType::int64, true, /*iterators=*/true);
  ASSERT_NE(run, nullptr);
  EXPECT_NE(run, d::select_dispatch(ScalarType::int64));
  EXPECT_EQ(d::select_dispatch(ScalarType::uint64, true, true), nullptr);
  alignas(16) unsigned char bytes4[4][128] = {};
  void* temp = device_address(0x7f5000000000);
  const std::uint64_t n = 2 * kInt32Max + 7;  // three partitions
  std::size_t bytes = 0;
  ASSERT_EQ(run(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n, nullptr,
                kNoState, kNoState),
            CUDA_SUCCESS);
  recorded<PartitionLaunch>().clear();
  const auto [rc, allocations] = count_allocations([&] {
    return run(p, temp, bytes, bytes4[0], bytes4[1], bytes4[2], bytes4[3], temp, n, nullptr,
               kNoState, kNoState);
  });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  std::size_t partitions = 0;
  for (const PartitionLaunch& l : recorded<PartitionLaunch>()) {
    if (l.fn != kPartition) continue;
    ++partitions;
    for (int k = 0; k < 4; ++k) EXPECT_EQ(l.items[k], bytes4[k]) << k;
  }
  EXPECT_EQ(partitions, 3u);
  // Arrays: each argument is the array's pointer.
  void* arrays[4] = {device_address(0x7f1000000000), device_address(0x7f2000000000),
                     device_address(0x7f3000000000), device_address(0x7f4000000000)};
  recorded<PartitionLaunch>().clear();
  ASSERT_EQ(d::select_dispatch(ScalarType::int64)(p, temp, bytes, arrays[0], arrays[1], arrays[2],
                                                  arrays[3], temp, 1000, nullptr, kNoState, kNoState),
            CUDA_SUCCESS);
  ASSERT_EQ(recorded<PartitionLaunch>().size(), 2u);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(*static_cast<void* const*>(recorded<PartitionLaunch>()[1].items[k]), arrays[k]) << k;
}
