// Reduce's host side without a GPU: spec validation and spec text; the closed-form
// temp-storage size against CCCL 3.5's own dispatch (its size path makes no driver
// call); and the hot path: a call allocates nothing and reaches the driver only
// through the cuLaunchKernelEx pointer fixed at bind (a recorder here; the kernels are
// stand-in handles and device pointers are never dereferenced by the host code).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "core/dispatch_abi.hpp"
#include "core/iterator.hpp"
#include "hot_path_support.hpp"
#include "reduce/dispatch.hpp"

// The operator argument of a stateless operator (core/launch.hpp).
static const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::reduce::detail;

struct ReduceLaunch : Launch {
  std::uint64_t int_arg;  // the single-tile kernels' num_items (3rd argument)
  // The operator's argument pointers: the single-tile kernels' 4th, the first pass's 5th
  // (after its even share).
  const void* op_arg3;
  const void* op_arg4;
};

CUresult record_reduce_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr || params[0] == nullptr || params[2] == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::uint64_t n = 0;
  std::memcpy(&n, params[2], 4);  // the low half of either offset width (little endian)
  recorded<ReduceLaunch>().push_back({launch_of(config, fn), n, params[3], params[4]});
  return CUDA_SUCCESS;
}

const CUfunction kSingle = reinterpret_cast<CUfunction>(0x2001);
const CUfunction kFirst = reinterpret_cast<CUfunction>(0x2002);
const CUfunction kSecond = reinterpret_cast<CUfunction>(0x2003);

using LaunchContext = cccl_cache::algos::detail::LaunchContext;

// What bind fixes for an H200-like device (132 SMs): the three kernels at their
// policy's block sizes, the first pass's occupancy.
LaunchContext context(int occupancy, int threads, decltype(&::cuLaunchKernelEx) launch) {
  LaunchContext c = h200_context(launch);
  c.num_kernels = 3;
  c.kernels[0] = {kSingle, threads, 1, 0};
  c.kernels[1] = {kFirst, threads, occupancy, 0};
  c.kernels[2] = {kSecond, threads, 1, 0};
  return c;
}

d::DispatchParams params(const LaunchContext* ctx, int threads, int items) {
  d::DispatchParams p;
  p.launch = ctx;
  p.multi_tile_threads = p.single_tile_threads = threads;
  p.multi_tile_items = p.single_tile_items = items;
  return p;
}

// The executables' (closed-form) answer for `n` items of 4-byte elements and
// accumulators of `a` bytes; 0 where it refuses n.
std::size_t closed_bytes(const d::DispatchParams& p, std::size_t a, ScalarType offset,
                         std::uint64_t n) {
  std::size_t bytes = 0;
  const d::DispatchFn fn = d::select_dispatch(4, a, offset);
  return fn(p, nullptr, bytes, nullptr, nullptr, n, nullptr, nullptr, kNoState) == CUDA_SUCCESS ? bytes : 0;
}

std::vector<std::uint64_t> sizes(ScalarType offset) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t n = 0; n <= 33; ++n) v.push_back(n);
  for (std::uint64_t n : {1023ull, 1024ull, 1025ull, 2047ull, 2048ull, 2049ull, 4095ull, 4096ull,
                          4097ull, 65537ull, 1000003ull, (1ull << 20) + 3, 1ull << 26, 1ull << 28,
                          (1ull << 31) + 5, std::numeric_limits<std::uint32_t>::max() + 0ull})
    v.push_back(n);
  if (offset == ScalarType::uint64)
    for (std::uint64_t n : {(1ull << 32) + 17, (1ull << 40) + 3}) v.push_back(n);
  return v;
}

}  // namespace

TEST(ReduceSpec, ValidatesTypeOperatorAndOffset) {
  using reduce::Spec;
  EXPECT_TRUE(Spec{}.validate());
  struct Case {
    ScalarType type;
    Operator op;
    ScalarType offset;
    bool ok;
  };
  const Case cases[] = {
      {ScalarType::float16, Operator::plus(), ScalarType::uint64, true},
      {ScalarType::bfloat16, Operator::of(OpKind::maximum), ScalarType::uint32, true},
      {ScalarType::uint8, Operator::of(OpKind::bit_xor), ScalarType::uint64, true},
      {ScalarType::int64, Operator::of(OpKind::logical_or), ScalarType::uint64, true},
      {ScalarType::float64, Operator::custom("f", "__device__ double f(double a, double b);"),
       ScalarType::uint64, true},
      {ScalarType::none, Operator::plus(), ScalarType::uint64, false},
      {static_cast<ScalarType>(99), Operator::plus(), ScalarType::uint64, false},
      {ScalarType::float32, Operator::of(OpKind::bit_and), ScalarType::uint64, false},
      {ScalarType::float32, Operator::of(OpKind::minus), ScalarType::uint64, false},
      {ScalarType::float32, Operator::less(), ScalarType::uint64, false},
      {ScalarType::float32, Operator::of(OpKind::negate), ScalarType::uint64, false},
      {ScalarType::float32, Operator::custom("cccl_cache_x", "int x;"), ScalarType::uint64, false},
      {ScalarType::float32, Operator::plus(), ScalarType::int64, false},
      {ScalarType::float32, Operator::plus(), ScalarType::int32, false},
  };
  for (const auto& c : cases) {
    Spec s{c.type, c.op, c.offset};
    const auto r = s.validate();
    EXPECT_EQ(static_cast<bool>(r), c.ok) << spec_text(s);
    if (!r) EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::invalid_argument);
  }
}

TEST(ReduceSpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("reduce");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text({{"type", "bfloat16", {}}, {"op", "maximum", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec), "reduce type=bfloat16 op=maximum offset=uint64");
  auto bad = entry->from_text({{"type", "float32", {}}, {"op", "bit_or", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("integer types only"), std::string::npos);
  EXPECT_FALSE(entry->from_text({{"op", "plus", {}}}));  // type is required
}

// Every (element size, accumulator size, offset), several policies and occupancies,
// many sizes: the closed form equals what CUB's dispatch answers.
TEST(ReduceTempStorage, ClosedFormEqualsCubDispatch) {
  int checked = 0;
  for (int occupancy : {1, 3, 8}) {
    for (auto [threads, items] : {std::pair{256, 16}, std::pair{512, 15}, std::pair{224, 13}}) {
      const LaunchContext ctx = context(occupancy, threads, nullptr);
      const d::DispatchParams p = params(&ctx, threads, items);
      for (std::size_t t : {1u, 2u, 4u, 8u})
        for (std::size_t a : {1u, 2u, 4u, 8u})
          for (ScalarType offset : {ScalarType::uint32, ScalarType::uint64}) {
            const d::DispatchFn cub = d::select_dispatch(t, a, offset, /*closed_form=*/false);
            const d::DispatchFn closed = d::select_dispatch(t, a, offset);
            ASSERT_NE(cub, nullptr);
            ASSERT_NE(closed, nullptr);
            for (std::uint64_t n : sizes(offset)) {
              std::size_t bytes = 12345, closed_form = 54321;
              ASSERT_EQ(cub(p, nullptr, bytes, nullptr, nullptr, n, nullptr, nullptr, kNoState),
                        CUDA_SUCCESS);
              ASSERT_EQ(closed(p, nullptr, closed_form, nullptr, nullptr, n, nullptr, nullptr, kNoState),
                        CUDA_SUCCESS);
              ASSERT_EQ(closed_form, bytes) << t << "/" << a << " n " << n;
              ++checked;
            }
          }
    }
  }
  EXPECT_GT(checked, 10000);
  // By hand: 132 SMs x 8 blocks x 5 (subscription) float partials, rounded to 256, + 255.
  const LaunchContext ctx = context(8, 256, nullptr);
  const d::DispatchParams f32 = params(&ctx, 256, 16);
  EXPECT_EQ(closed_bytes(f32, 4, ScalarType::uint64, 4096), 1u);  // one tile: 256 x 16
  EXPECT_EQ(closed_bytes(f32, 4, ScalarType::uint64, 4097), 21248u + 255);  // 132*8*5*4 = 21,120
}

TEST(ReduceTempStorage, CountsBeyondTheOffsetTypeAreRefused) {
  const LaunchContext ctx = context(8, 256, nullptr);
  const d::DispatchParams p = params(&ctx, 256, 16);
  for (const d::DispatchFn fn :
       {d::select_dispatch(4, 4, ScalarType::uint32),
        d::select_dispatch(4, 4, ScalarType::uint32, /*closed_form=*/false)}) {
    std::size_t bytes = 0;
    EXPECT_EQ(fn(p, nullptr, bytes, nullptr, nullptr, 1ull << 32, nullptr, nullptr, kNoState),
              CUDA_ERROR_INVALID_VALUE);
  }
  EXPECT_EQ(closed_bytes(p, 4, ScalarType::uint32, (1ull << 32) - 1), 21248u + 255);
  EXPECT_EQ(d::select_dispatch(4, 4, ScalarType::int64), nullptr);
  EXPECT_EQ(d::select_dispatch(3, 4, ScalarType::uint64), nullptr);
  EXPECT_EQ(d::select_dispatch(4, 16, ScalarType::uint64), nullptr);
}

struct HotCase {
  std::uint64_t items;
  unsigned first_pass_grid;  // 0: one single-tile launch
};

TEST(ReduceHotPath, LaunchesOnlyTheBoundKernelsAndAllocatesNothing) {
  const LaunchContext ctx = context(8, 256, &record_reduce_launch);
  const d::DispatchParams p = params(&ctx, 256, 16);
  const d::DispatchFn reduce = d::select_dispatch(8, 8, ScalarType::uint64);
  void* in = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  void* out = reinterpret_cast<void*>(std::uintptr_t{0x7f2000000000});
  void* temp = reinterpret_cast<void*>(std::uintptr_t{0x7f1000000000});
  const double init = 1.5;
  // A stateful operator's state: every launch's operator argument is its address
  // (OpArg), which the driver copies the kernel parameter from.
  const double state = 2.0;
  // 4,096 items fill one tile; 10^6 need 245 tiles; 2^28 are capped at 132 x 8 x 5 blocks.
  for (const HotCase c : {HotCase{0, 0}, HotCase{4096, 0}, HotCase{4097, 2},
                          HotCase{1'000'000, 245}, HotCase{1ull << 28, 5280}}) {
    SCOPED_TRACE(c.items);
    recorded<ReduceLaunch>().clear();
    std::size_t bytes = 0;
    ASSERT_EQ(reduce(p, nullptr, bytes, in, out, c.items, &init, nullptr, kNoState), CUDA_SUCCESS);
    const auto [rc, allocations] =
        count_allocations([&] { return reduce(p, temp, bytes, in, out, c.items, &init, nullptr, &state); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the reduce path allocated";
    const auto& seen = recorded<ReduceLaunch>();
    if (c.first_pass_grid == 0) {
      ASSERT_EQ(seen.size(), 1u);
      EXPECT_EQ(seen[0].fn, kSingle);
      EXPECT_EQ(seen[0].int_arg, c.items);
    } else {
      ASSERT_EQ(seen.size(), 2u);
      EXPECT_EQ(seen[0].fn, kFirst);
      EXPECT_EQ(seen[0].grid_x, c.first_pass_grid);
      EXPECT_EQ(seen[1].fn, kSecond);
      EXPECT_EQ(seen[1].int_arg, c.first_pass_grid);  // the partials
    }
    for (const ReduceLaunch& l : seen) {
      EXPECT_EQ(l.fn == kFirst ? l.op_arg4 : l.op_arg3, &state) << "the operator argument";
      EXPECT_EQ(l.block_x, 256u);
      if (l.fn != kFirst) EXPECT_EQ(l.grid_x, 1u);
      EXPECT_EQ(l.num_attrs, 0u) << "CUB's reduce launches without dependent launch";
    }
  }
}

struct InputLaunch : Launch {
  const void* in_arg;  // every reduce kernel's first argument
};

CUresult record_input_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr || params[0] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  recorded<InputLaunch>().push_back({launch_of(config, fn), params[0]});
  return CUDA_SUCCESS;
}

// An input iterator's values are packed on the stack and their address is the input
// argument of each launch that reads the input (the driver copies the kernel's iterator
// from it); the second pass reads the partials. Nothing allocates.
TEST(ReduceHotPath, AnInputIteratorsPackedBytesAreTheInputArgumentAndNothingAllocates) {
  const LaunchContext ctx = context(8, 256, &record_input_launch);
  const d::DispatchParams p = params(&ctx, 256, 16);
  const d::DispatchFn reduce =
      d::select_dispatch(8, 8, ScalarType::uint64, /*closed_form=*/true, /*iterator_input=*/true);
  ASSERT_NE(reduce, nullptr);
  const Iterator it = Iterator::counting(ScalarType::int64);
  void* out = reinterpret_cast<void*>(std::uintptr_t{0x7f2000000000});
  void* temp = reinterpret_cast<void*>(std::uintptr_t{0x7f1000000000});
  const double init = 0;
  for (const std::uint64_t n : {0ull, 4096ull, 1'000'000ull}) {
    SCOPED_TRACE(n);
    recorded<InputLaunch>().clear();
    std::size_t bytes = 0;
    ASSERT_EQ(reduce(p, nullptr, bytes, nullptr, out, n, &init, nullptr, kNoState), CUDA_SUCCESS);
    cccl_cache::algos::detail::IteratorArg packed;
    const auto [rc, allocations] = count_allocations([&] {
      if (!cccl_cache::algos::detail::pack_iterator(
              it, ScalarType::float64, IteratorValue::counting(std::int64_t{7}), n, packed))
        return CUDA_ERROR_INVALID_VALUE;
      return reduce(p, temp, bytes, packed.bytes, out, n, &init, nullptr, kNoState);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the iterator path allocated";
    const auto& seen = recorded<InputLaunch>();
    ASSERT_EQ(seen.size(), n > 4096 ? 2u : 1u);
    EXPECT_EQ(seen[0].in_arg, static_cast<const void*>(packed.bytes));
    if (seen.size() == 2) EXPECT_NE(seen[1].in_arg, static_cast<const void*>(packed.bytes));
  }
}

TEST(ReduceHotPath, TooLittleTempStorageOrNoInitIsInvalidAndLaunchesNothing) {
  const LaunchContext ctx = context(8, 256, &record_reduce_launch);
  const d::DispatchParams p = params(&ctx, 256, 16);
  const d::DispatchFn reduce = d::select_dispatch(4, 4, ScalarType::uint32);
  void* dev = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  const float init = 0;
  recorded<ReduceLaunch>().clear();
  std::size_t bytes = closed_bytes(p, 4, ScalarType::uint32, 1'000'000) - 1;
  EXPECT_EQ(reduce(p, dev, bytes, dev, dev, 1'000'000, &init, nullptr, kNoState), CUDA_ERROR_INVALID_VALUE);
  bytes = 1;
  EXPECT_EQ(reduce(p, dev, bytes, dev, dev, 100, nullptr, nullptr, kNoState), CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<ReduceLaunch>().empty());
}

TEST(ReduceHotPath, ALaunchErrorIsReturnedAndStopsTheReduce) {
  const LaunchContext ctx =
      context(8, 256, &failing_launch);
  const d::DispatchParams p = params(&ctx, 256, 16);
  const d::DispatchFn reduce = d::select_dispatch(4, 4, ScalarType::uint64);
  std::size_t bytes = closed_bytes(p, 4, ScalarType::uint64, 1'000'000);
  void* dev = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  const float init = 0;
  EXPECT_EQ(reduce(p, dev, bytes, dev, dev, 1'000'000, &init, nullptr, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

