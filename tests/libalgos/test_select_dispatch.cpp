// select's host side without a GPU: spec validation and spec text; the closed-form
// temp-storage size against the dispatch's own CUB arithmetic, and the dispatch against
// CUB's own DeviceSelect::If dispatch (select_cub_reference.cu: sizes and every launch,
// partitions included); and the hot path: a call allocates nothing and reaches the
// driver only through the cuLaunchKernelEx pointer fixed at bind (a recorder here; the
// kernels are stand-in handles and device pointers are never dereferenced).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "core/dispatch_abi.hpp"
#include "hot_path_support.hpp"
#include "spec_cases.hpp"
#include "select/dispatch.hpp"
#include "select_cub_reference.hpp"

// The operator argument of a stateless operator (core/launch.hpp).
static const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::select::detail;
using select::Spec;

const CUfunction kInit = reinterpret_cast<CUfunction>(0x5001);
const CUfunction kSweep = reinterpret_cast<CUfunction>(0x5002);

// Records a launch as select_cub_reference.hpp's SelectLaunch. Init kernel: tile state,
// tile count, count pointer. Sweep kernel: items in, flags, items out, count pointer,
// tile state, predicate, equality, partition items, tile count, streaming context,
// virtual shared memory.
CUresult record_select_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const int count = fn == kInit ? 3 : 11;
  for (int i = 0; i < count; ++i)
    if (params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (params[count] != nullptr) return CUDA_ERROR_INVALID_VALUE;
  SelectLaunch l;
  l.grid = config->gridDimX;
  l.block = config->blockDimX;
  if (config->numAttrs != 0 || config->sharedMemBytes != 0) return CUDA_ERROR_INVALID_VALUE;
  if (fn == kInit) {
    std::memcpy(l.tile_state.data(), params[0], 8);
    std::memcpy(&l.num_tiles, params[1], sizeof(int));
    std::memcpy(&l.selected, params[2], sizeof(void*));
  } else {
    l.sweep = true;
    std::memcpy(&l.in, params[0], sizeof(void*));
    std::memcpy(&l.out, params[2], sizeof(void*));
    std::memcpy(&l.selected, params[3], sizeof(void*));
    std::memcpy(l.tile_state.data(), params[4], 8);
    std::memcpy(&l.num_items, params[7], sizeof(int));
    std::memcpy(&l.num_tiles, params[8], sizeof(int));
    std::memcpy(l.context.data(), params[9], l.context.size());
    clear_context_padding(l.context);
    std::memcpy(&l.vsmem, params[10], sizeof(void*));
  }
  recorded<SelectLaunch>().push_back(l);
  return CUDA_SUCCESS;
}

using LaunchContext = cccl_cache::algos::detail::LaunchContext;

LaunchContext context(decltype(&::cuLaunchKernelEx) launch, std::uint32_t threads = 128) {
  LaunchContext c = h200_context(launch);
  c.num_kernels = 2;
  c.kernels[0] = {kInit, 128, 16, 0};
  c.kernels[1] = {kSweep, static_cast<int>(threads), 8, 0};
  return c;
}

d::DispatchParams params(const LaunchContext* ctx, std::uint32_t threads = 128, std::uint32_t items = 8) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy.threads = threads;
  p.policy.items = items;
  return p;
}

constexpr std::uint64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
const std::uint64_t kCounts[] = {0,       1,          2,          1023,           1024,
                                 1025,    (1u << 20) + 3, 1u << 26, kInt32Max - 1, kInt32Max,
                                 kInt32Max + 1, 1ull << 32, 5 * (kInt32Max + 1) + 17, 1ull << 40};

}  // namespace

TEST(SelectSpec, ValidatesEveryField) {
  EXPECT_TRUE(Spec{}.validate());
  const auto id = Operator::of(OpKind::identity);
  const auto custom = Operator::custom("positive", "__device__ bool positive(float x) { return x > 0; }");
  using S = ScalarType;
  const SpecCase<Spec> cases[] = {
      {{S::float16, id, S::int64, S::int32}, true, ""},
      {{S::bfloat16, custom, S::int64, S::uint32}, true, ""},
      {{S::uint64, custom, S::int64, S::int64}, true, ""},
      {{S::none, id, S::int64, S::uint64}, false, "type"},
      {{static_cast<S>(99), id, S::int64, S::uint64}, false, "type"},
      {{S::int32, Operator::less(), S::int64, S::uint64}, false, "op"},
      {{S::int32, Operator::of(OpKind::negate), S::int64, S::uint64}, false, "op"},
      {{S::int32, Operator::custom("cccl_cache_x", "int x;"), S::int64, S::uint64}, false, "op"},
      {{S::int32, Operator::custom("f", " "), S::int64, S::uint64}, false, "op"},
      {{S::int32, id, S::uint64, S::uint64}, false, "offset"},
      {{S::int32, id, S::int32, S::uint64}, false, "offset"},
      {{S::int32, id, S::int64, S::int16}, false, "selected"},
      {{S::int32, id, S::int64, S::float64}, false, "selected"},
  };
  expect_validation<Spec>(cases);
}

TEST(SelectSpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("select");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text({{"type", "float64", {}}, {"selected", "int32", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec), "select type=float64 op=identity offset=int64 selected=int32");
  auto custom = entry->from_text(
      {{"type", "int32", {}}, {"op", "even", "__device__ bool even(int x) { return x % 2 == 0; }"}});
  ASSERT_TRUE(custom) << custom.error().describe();
  EXPECT_EQ(spec_text(*custom), "select type=int32 op=even offset=int64 selected=uint64");
  auto bad = entry->from_text({{"type", "int32", {}}, {"op", "plus", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("identity"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(entry->from_text({{"op", "identity", {}}}));  // type is required
}

// Many counts, two tile shapes: the closed form equals the dispatch's answer through
// CUB's allocation arithmetic, and that equals CUB's own dispatch; counts above INT64_MAX
// are refused.
TEST(SelectTempStorage, ClosedFormEqualsCubDispatch) {
  const LaunchContext ctx = context(nullptr);
  const d::DispatchFn fn = d::select_dispatch();
  const d::DispatchFn reference = d::select_dispatch(/*closed_form=*/false);
  ASSERT_NE(fn, nullptr);
  ASSERT_NE(reference, nullptr);
  int checked = 0;
  for (std::size_t policy = 0; policy < kCubSelectPolicies.size(); ++policy) {
    const auto [threads, items] = kCubSelectPolicies[policy];
    const d::DispatchParams p = params(&ctx, threads, items);
    for (std::uint64_t n : kCounts) {
      std::size_t ours = 7, dispatched = 7;
      ASSERT_EQ(fn(p, nullptr, ours, nullptr, nullptr, nullptr, n, nullptr, kNoState), CUDA_SUCCESS);
      ASSERT_EQ(reference(p, nullptr, dispatched, nullptr, nullptr, nullptr, n, nullptr, kNoState), CUDA_SUCCESS);
      const SelectCall cub = cub_select(policy, nullptr, 0, nullptr, nullptr, nullptr, static_cast<std::int64_t>(n));
      ASSERT_EQ(cub.status, 0) << n;
      EXPECT_TRUE(cub.launches.empty());
      EXPECT_EQ(ours, dispatched) << threads << "x" << items << " n " << n;
      EXPECT_EQ(ours, cub.bytes) << threads << "x" << items << " n " << n;
      ++checked;
    }
    for (std::uint64_t n : {std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
      std::size_t bytes = 7;
      EXPECT_EQ(fn(p, nullptr, bytes, nullptr, nullptr, nullptr, n, nullptr, kNoState), CUDA_ERROR_INVALID_VALUE);
      EXPECT_EQ(reference(p, nullptr, bytes, nullptr, nullptr, nullptr, n, nullptr, kNoState), CUDA_ERROR_INVALID_VALUE);
    }
  }
  EXPECT_EQ(checked, 2 * static_cast<int>(std::size(kCounts)));
}

// Every launch of a call, partitions of more than INT32_MAX items included, is CUB's own:
// grids, blocks, tile states, counts, streaming contexts and pointers; no allocation.
TEST(SelectHotPath, LaunchesAreCubsAndAllocateNothing) {
  const std::uintptr_t in = 0x7f0000000000, out = 0x7f1000000000, selected = 0x7f4000000000,
                       temp = 0x7f5000000000;
  const auto ptr = [](std::uintptr_t a) { return reinterpret_cast<void*>(a); };
  for (std::size_t policy = 0; policy < kCubSelectPolicies.size(); ++policy) {
    const auto [threads, items] = kCubSelectPolicies[policy];
    const LaunchContext ctx = context(&record_select_launch, threads);
    const d::DispatchParams p = params(&ctx, threads, items);
    const d::DispatchFn run = d::select_dispatch();
    for (std::uint64_t n : kCounts) {
      if (n > (std::uint64_t{1} << 36)) continue;  // hundreds of partitions: more launches than recorded() holds
      SCOPED_TRACE(std::to_string(threads) + "x" + std::to_string(items) + ", " + std::to_string(n) + " items");
      std::size_t bytes = 0;
      ASSERT_EQ(run(p, nullptr, bytes, nullptr, nullptr, nullptr, n, nullptr, kNoState), CUDA_SUCCESS);
      recorded<SelectLaunch>().clear();
      const auto [rc, allocations] = count_allocations(
          [&] { return run(p, ptr(temp), bytes, ptr(in), ptr(out), ptr(selected), n, nullptr, kNoState); });
      EXPECT_EQ(rc, CUDA_SUCCESS);
      EXPECT_EQ(allocations, 0) << "the select path allocated";
      const SelectCall cub = cub_select(policy, ptr(temp), bytes, ptr(in), ptr(out), ptr(selected),
                                        static_cast<std::int64_t>(n));
      ASSERT_EQ(cub.status, 0);
      const auto& ours = recorded<SelectLaunch>();
      ASSERT_EQ(ours.size(), cub.launches.size());
      // Partitions of at most INT32_MAX items, rounded down to whole tiles: an init and a
      // sweep launch each (only the init launch for no items).
      const std::uint64_t tile = std::uint64_t{static_cast<std::uint32_t>(threads)} * items;
      const std::uint64_t partition = kInt32Max - kInt32Max % tile;
      EXPECT_EQ(ours.size(), n == 0 ? 1u : 2 * ((n + partition - 1) / partition));
      for (std::size_t i = 0; i < ours.size(); ++i) {
        const SelectLaunch &a = ours[i], &b = cub.launches[i];
        SCOPED_TRACE("launch " + std::to_string(i));
        EXPECT_EQ(a.sweep, b.sweep);
        EXPECT_EQ(a.grid, b.grid);
        EXPECT_EQ(a.block, b.block);
        EXPECT_EQ(a.tile_state, b.tile_state);
        EXPECT_EQ(a.num_tiles, b.num_tiles);
        EXPECT_EQ(a.selected, selected);
        EXPECT_EQ(a.selected, b.selected);
        EXPECT_EQ(a.in, b.in);
        EXPECT_EQ(a.out, b.out);
        EXPECT_EQ(a.num_items, b.num_items);
        EXPECT_EQ(a.context, b.context);
        EXPECT_EQ(a.vsmem, b.vsmem);
      }
    }
  }
}

TEST(SelectHotPath, BadCountsAndSmallTempStorageLaunchNothing) {
  const LaunchContext ctx = context(&record_select_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch();
  void* dev = device_address(0x7f0000000000);
  recorded<SelectLaunch>().clear();
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(run(p, dev, bytes, dev, dev, dev, std::uint64_t{1} << 63, nullptr, kNoState), CUDA_ERROR_INVALID_VALUE);
  std::size_t small = 16;
  EXPECT_EQ(run(p, dev, small, dev, dev, dev, 1000, nullptr, kNoState), CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<SelectLaunch>().empty());
}

TEST(SelectHotPath, ALaunchErrorIsReturnedAndStopsTheCall) {
  const LaunchContext ctx = context(&failing_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(d::select_dispatch()(p, dev, bytes, dev, dev, dev, 1000, nullptr, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

namespace {

// The sweep kernel's item arguments, as the driver is handed them (their addresses).
struct ItemArguments {
  const void* in;
  const void* out;
};
CUresult record_item_arguments(const CUlaunchConfig*, CUfunction fn, void** params, void**) {
  if (fn == kSweep) recorded<ItemArguments>().push_back({params[0], params[2]});
  return CUDA_SUCCESS;
}

// An iterator's kernel argument is its packed bytes, handed to the driver by address, the
// same for every partition (the streaming context offsets the kernel's reads and writes);
// an array's is its pointer. No allocation.
TEST(SelectHotPath, IteratorsArePassedAsTheirPackedBytes) {
  const LaunchContext ctx = context(&record_item_arguments);
  const d::DispatchParams p = params(&ctx);
  const std::uint64_t n = 3 * kInt32Max;  // four partitions of whole tiles
  alignas(16) unsigned char in_bytes[128] = {};
  void* out = device_address(0x7f1000000000);
  void* temp = device_address(0x7f5000000000);
  const d::DispatchFn run =
      d::select_dispatch(true, /*input_iterator=*/true, /*output_iterator=*/false);
  EXPECT_NE(run, d::select_dispatch());
  std::size_t bytes = 0;
  ASSERT_EQ(run(p, nullptr, bytes, nullptr, nullptr, nullptr, n, nullptr, kNoState), CUDA_SUCCESS);
  recorded<ItemArguments>().clear();
  const auto [rc, allocations] = count_allocations(
      [&] { return run(p, temp, bytes, in_bytes, out, out, n, nullptr, kNoState); });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  const std::uint64_t tile = std::uint64_t{p.policy.threads} * p.policy.items;
  const std::uint64_t partition = kInt32Max - kInt32Max % tile;
  ASSERT_EQ(recorded<ItemArguments>().size(), (n + partition - 1) / partition);
  for (const ItemArguments& a : recorded<ItemArguments>()) {
    EXPECT_EQ(a.in, in_bytes);
    EXPECT_EQ(*static_cast<void* const*>(a.out), out);
  }
  // Both iterators.
  alignas(16) unsigned char out_bytes[128] = {};
  recorded<ItemArguments>().clear();
  ASSERT_EQ(d::select_dispatch(true, true, true)(p, temp, bytes, in_bytes, out_bytes, out, 1000,
                                                 nullptr, kNoState),
            CUDA_SUCCESS);
  ASSERT_EQ(recorded<ItemArguments>().size(), 1u);
  EXPECT_EQ(recorded<ItemArguments>()[0].in, in_bytes);
  EXPECT_EQ(recorded<ItemArguments>()[0].out, out_bytes);
}

}  // namespace
