// Segmented reduce's host side without a GPU: spec validation and spec text; the
// closed-form temp-storage size against CCCL 3.5's own dispatch (its size path makes no
// driver call); and the hot path: a call allocates nothing and reaches the driver only
// through the cuLaunchKernelEx pointer fixed at bind (a recorder here; the kernel is a
// stand-in handle and device pointers are never dereferenced by the host code).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "core/dispatch_abi.hpp"
#include "hot_path_support.hpp"
#include "segmented_reduce/dispatch.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::segmented_reduce::detail;
using segmented_reduce::Spec;

// A launch with the kernel's arguments CUB passes: input, output, begin and end
// offsets, the launch's segment count and the max_segment_size guarantee.
// The operator argument of a stateless operator (core/launch.hpp).
const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

struct SegmentLaunch : Launch {
  std::uintptr_t in, out, begin, end;
  int num_segments;
  std::size_t max_segment_size;
  const void* op_arg;  // the operator argument's pointer (6th)
};

CUresult record_segment_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  for (int i = 0; i < 8; ++i)
    if (params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  SegmentLaunch l{launch_of(config, fn), 0, 0, 0, 0, 0, 0, params[5]};
  std::memcpy(&l.in, params[0], sizeof(void*));
  std::memcpy(&l.out, params[1], sizeof(void*));
  std::memcpy(&l.begin, params[2], sizeof(void*));
  std::memcpy(&l.end, params[3], sizeof(void*));
  std::memcpy(&l.num_segments, params[4], sizeof(int));
  std::memcpy(&l.max_segment_size, params[7], sizeof(std::size_t));
  recorded<SegmentLaunch>().push_back(l);
  return CUDA_SUCCESS;
}

const CUfunction kKernel = reinterpret_cast<CUfunction>(0x3001);
using LaunchContext = cccl_cache::algos::detail::LaunchContext;

LaunchContext context(decltype(&::cuLaunchKernelEx) launch, int threads = 256) {
  LaunchContext c = h200_context(launch);
  c.num_kernels = 1;
  c.kernels[0] = {kKernel, threads, 8, 0};
  return c;
}

// CUB's policy for 4-byte accumulators on sm_90: 256 threads x 16 items; warps of 32
// (medium) and 1 (small) thread, 16 items each.
d::DispatchParams params(const LaunchContext* ctx) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy = {256, 16, 32, 16, 1, 16};
  return p;
}

}  // namespace

TEST(SegmentedReduceSpec, ValidatesTypeOperatorAndOffset) {
  EXPECT_TRUE(Spec{}.validate());
  struct Case {
    ScalarType type;
    Operator op;
    ScalarType offset;
    bool ok;
  };
  const Case cases[] = {
      {ScalarType::float16, Operator::plus(), ScalarType::int32, true},
      {ScalarType::bfloat16, Operator::of(OpKind::maximum), ScalarType::uint32, true},
      {ScalarType::uint8, Operator::of(OpKind::bit_xor), ScalarType::uint64, true},
      {ScalarType::float64, Operator::custom("f", "__device__ double f(double a, double b);"),
       ScalarType::int64, true},
      {ScalarType::none, Operator::plus(), ScalarType::int64, false},
      {static_cast<ScalarType>(99), Operator::plus(), ScalarType::int64, false},
      {ScalarType::float32, Operator::of(OpKind::bit_and), ScalarType::int64, false},
      {ScalarType::float32, Operator::of(OpKind::minus), ScalarType::int64, false},
      {ScalarType::float32, Operator::less(), ScalarType::int64, false},
      {ScalarType::float32, Operator::custom("cccl_cache_x", "int x;"), ScalarType::int64, false},
      {ScalarType::float32, Operator::plus(), ScalarType::int16, false},
      {ScalarType::float32, Operator::plus(), ScalarType::float64, false},
      {ScalarType::float32, Operator::plus(), ScalarType::none, false},
  };
  for (const auto& c : cases) {
    Spec s{c.type, c.op, c.offset};
    const auto r = s.validate();
    EXPECT_EQ(static_cast<bool>(r), c.ok) << spec_text(s);
    if (!r) EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::invalid_argument);
  }
}

TEST(SegmentedReduceSpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("segmented_reduce");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text({{"type", "int32", {}}, {"op", "minimum", {}}, {"offset", "uint32", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec), "segmented_reduce type=int32 op=minimum offset=uint32");
  auto defaults = entry->from_text({{"type", "float64", {}}});
  ASSERT_TRUE(defaults);
  EXPECT_EQ(spec_text(*defaults), "segmented_reduce type=float64 op=plus offset=int64");
  auto bad = entry->from_text({{"type", "float32", {}}, {"offset", "int8", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("offset must be"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(entry->from_text({{"op", "plus", {}}}));  // type is required
}

// Every (element size, offset type), many counts: the closed form equals what CUB's
// dispatch answers (and for zero segments, where CUB writes nothing, it is 1).
TEST(SegmentedReduceTempStorage, ClosedFormEqualsCubDispatch) {
  const LaunchContext ctx = context(nullptr);
  const d::DispatchParams p = params(&ctx);
  int checked = 0;
  for (std::size_t t : {1u, 2u, 4u, 8u})
    for (ScalarType offset : {ScalarType::int32, ScalarType::uint32, ScalarType::int64, ScalarType::uint64}) {
      const d::DispatchFn fn = d::select_dispatch(t, offset);
      ASSERT_NE(fn, nullptr);
      for (std::uint64_t n : {1ull, 2ull, 3ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 31,
                              (1ull << 31) + 5, 1ull << 40, 0x7fffffffffffffffull})
        for (std::uint64_t max_segment_size : {0ull, 1ull, 16ull, 17ull, 512ull, 513ull, 1ull << 40}) {
          std::size_t bytes = 12345;
          ASSERT_EQ(fn(p, nullptr, bytes, nullptr, nullptr, n, nullptr, nullptr, nullptr,
                       max_segment_size, nullptr, nullptr),
                    CUDA_SUCCESS);
          ASSERT_EQ(d::temp_storage_bytes(n), bytes) << t << " n " << n;
          ++checked;
        }
      std::size_t untouched = 12345;
      ASSERT_EQ(fn(p, nullptr, untouched, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0,
                   nullptr, nullptr),
                CUDA_SUCCESS);
      EXPECT_EQ(untouched, 12345u) << "CUB answers nothing for zero segments";
    }
  EXPECT_EQ(checked, 4 * 4 * 10 * 7);
  EXPECT_EQ(d::temp_storage_bytes(0), 1u);
  EXPECT_EQ(d::temp_storage_bytes(std::uint64_t{INT64_MAX} + 1), 0u);
}

// Scalars' sizes and structs' stand-in sizes (12, 16, 24, 32) have a dispatch; others not.
TEST(SegmentedReduceTempStorage, UnsupportedSizesHaveNoDispatch) {
  EXPECT_EQ(d::select_dispatch(3, ScalarType::int64), nullptr);
  EXPECT_EQ(d::select_dispatch(20, ScalarType::int64), nullptr);
  EXPECT_EQ(d::select_dispatch(64, ScalarType::int64), nullptr);
  for (std::size_t size : {1u, 2u, 4u, 8u, 12u, 16u, 24u, 32u})
    EXPECT_NE(d::select_dispatch(size, ScalarType::int64, true), nullptr) << size;
  EXPECT_EQ(d::select_dispatch(4, ScalarType::int16), nullptr);
  EXPECT_EQ(d::select_dispatch(4, ScalarType::float32), nullptr);
}

struct HotCase {
  std::uint64_t segments;
  std::uint64_t max_segment_size;
  std::vector<unsigned> grids;  // one per launch
  std::vector<int> counts;      // segments per launch
};

// One block per segment (max_segment_size 0 or beyond a warp's tile), 256 segments per
// block of single threads (up to 16 items), 8 per block of warps (up to 512 items);
// 2^31-1 segments per launch at most, the pointers advanced between launches.
TEST(SegmentedReduceHotPath, LaunchesOnlyTheBoundKernelAndAllocatesNothing) {
  const LaunchContext ctx = context(&record_segment_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(8, ScalarType::int64);
  const std::uintptr_t in = 0x7f0000000000, out = 0x7f2000000000, begin = 0x7f4000000000,
                       end = 0x7f6000000000;
  const auto ptr = [](std::uintptr_t a) { return reinterpret_cast<void*>(a); };
  const double init = 1.5;
  // A stateful operator's state: every launch's operator argument is its address (OpArg).
  const double state = 2.0;
  constexpr int kMax = std::numeric_limits<int>::max();
  const HotCase cases[] = {
      {0, 0, {}, {}},
      {1, 0, {1}, {1}},
      {1000, 0, {1000}, {1000}},
      {1000, 16, {4}, {1000}},
      {1000, 17, {125}, {1000}},
      {1000, 512, {125}, {1000}},
      {1000, 513, {1000}, {1000}},
      {(1ull << 31) + 5, 0, {unsigned(kMax), 6}, {kMax, 6}},
  };
  for (const HotCase& c : cases) {
    SCOPED_TRACE(std::to_string(c.segments) + " segments, max " + std::to_string(c.max_segment_size));
    recorded<SegmentLaunch>().clear();
    std::size_t bytes = d::temp_storage_bytes(c.segments);
    const auto [rc, allocations] = count_allocations([&] {
      return run(p, ptr(0x7f1000000000), bytes, ptr(in), ptr(out), c.segments, ptr(begin), ptr(end),
                 &init, c.max_segment_size, nullptr, &state);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the segmented reduce path allocated";
    const auto& seen = recorded<SegmentLaunch>();
    ASSERT_EQ(seen.size(), c.grids.size());
    std::uint64_t done = 0;
    for (std::size_t i = 0; i < seen.size(); ++i) {
      EXPECT_EQ(seen[i].fn, kKernel);
      EXPECT_EQ(seen[i].block_x, 256u);
      EXPECT_EQ(seen[i].grid_x, c.grids[i]);
      EXPECT_EQ(seen[i].num_segments, c.counts[i]);
      EXPECT_EQ(seen[i].max_segment_size, c.max_segment_size);
      EXPECT_EQ(seen[i].op_arg, &state) << "the operator argument";
      EXPECT_EQ(seen[i].num_attrs, 0u) << "CUB's segmented reduce launches without dependent launch";
      EXPECT_EQ(seen[i].in, in) << "the input is never advanced (offsets are absolute)";
      EXPECT_EQ(seen[i].out, out + 8 * done);
      EXPECT_EQ(seen[i].begin, begin + 8 * done);
      EXPECT_EQ(seen[i].end, end + 8 * done);
      done += static_cast<std::uint64_t>(c.counts[i]);
    }
  }
}

TEST(SegmentedReduceHotPath, BadCountsOrNoInitAreInvalidAndLaunchNothing) {
  const LaunchContext ctx = context(&record_segment_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(4, ScalarType::int32);
  void* dev = device_address(0x7f0000000000);
  const float init = 0;
  recorded<SegmentLaunch>().clear();
  std::size_t bytes = 1;
  EXPECT_EQ(run(p, dev, bytes, dev, dev, 100, dev, dev, nullptr, 0, nullptr, kNoState),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(run(p, dev, bytes, dev, dev, std::uint64_t{INT64_MAX} + 1, dev, dev, &init, 0, nullptr,
                kNoState),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(run(p, nullptr, bytes, dev, dev, std::uint64_t{INT64_MAX} + 1, dev, dev, &init, 0,
                nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<SegmentLaunch>().empty());
}

TEST(SegmentedReduceHotPath, ALaunchErrorIsReturned) {
  const LaunchContext ctx = context(&failing_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(4, ScalarType::uint64);
  void* dev = device_address(0x7f0000000000);
  const float init = 0;
  std::size_t bytes = 1;
  EXPECT_EQ(run(p, dev, bytes, dev, dev, 1000, dev, dev, &init, 0, nullptr, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

