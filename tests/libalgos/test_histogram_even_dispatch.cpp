// histogram_even's host side without a GPU: spec validation and spec text; the
// closed-form temp-storage size against CCCL 3.5's own dispatch (its size path makes no
// driver call) for many counts and bin counts; the bounds' checks; and the hot path: a
// call allocates nothing and reaches the driver only through the cuLaunchKernelEx pointer
// fixed at bind (a recorder here; the kernels are stand-in handles and device pointers
// are never dereferenced).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "closed_form_support.hpp"
#include "core/dispatch_abi.hpp"
#include "histogram_even/dispatch.hpp"
#include "hot_path_support.hpp"
#include "spec_cases.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::histogram_even::detail;
using histogram_even::Spec;

const CUfunction kInit = reinterpret_cast<CUfunction>(0x7001);
const CUfunction kShared = reinterpret_cast<CUfunction>(0x7002);
const CUfunction kGlobal = reinterpret_cast<CUfunction>(0x7003);

struct HistogramLaunch : Launch {
  int bins = 0;              // the output bins (both kernels' num_output_bins)
  int privatized = 0;        // the sweep's privatized bins
  std::int32_t upper = 0;    // the sweep's first level array (int32 levels here)
  std::int32_t lower = 0;    // its second
  std::int32_t samples = 0;  // its num_row_pixels (int32 offsets here)
  const void* samples_arg = nullptr;  // the sweep's samples argument pointer (its first)
  const void* samples_ptr = nullptr;  // the pointer it held at the launch (an array's)
};

// Init kernel: output bins, histograms, tile queue. Sweep kernel: samples, output and
// privatized bins, output and privatized histograms, upper and lower levels, pixels,
// rows, row stride, tiles per row, tile queue.
CUresult record_histogram_launch(const CUlaunchConfig* config, CUfunction fn, void** params,
                                 void**) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const int count = fn == kInit ? 3 : 12;
  for (int i = 0; i < count; ++i)
    if (params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (params[count] != nullptr) return CUDA_ERROR_INVALID_VALUE;
  HistogramLaunch l{launch_of(config, fn)};
  std::memcpy(&l.bins, params[fn == kInit ? 0 : 1], sizeof(int));
  if (fn != kInit) {
    std::memcpy(&l.privatized, params[2], sizeof(int));
    std::memcpy(&l.upper, params[5], sizeof(std::int32_t));
    std::memcpy(&l.lower, params[6], sizeof(std::int32_t));
    std::memcpy(&l.samples, params[7], sizeof(std::int32_t));
    l.samples_arg = params[0];
    std::memcpy(&l.samples_ptr, params[0], sizeof l.samples_ptr);
  }
  recorded<HistogramLaunch>().push_back(l);
  return CUDA_SUCCESS;
}

using LaunchContext = cccl_cache::algos::detail::LaunchContext;

// Occupancies that differ per sweep kernel, so that a size from the wrong one shows.
LaunchContext context(decltype(&::cuLaunchKernelEx) launch, std::uint32_t threads = 384) {
  LaunchContext c = h200_context(launch);
  c.num_kernels = 3;
  c.kernels[0] = {kInit, 256, 8, 0};
  c.kernels[1] = {kShared, static_cast<int>(threads), 3, 0};
  c.kernels[2] = {kGlobal, static_cast<int>(threads), 5, 0};
  return c;
}

d::DispatchParams params(const LaunchContext* ctx, ScalarType levels = ScalarType::int32,
                         ScalarType samples = ScalarType::int32, std::uint32_t threads = 384,
                         std::uint32_t pixels = 16, std::uint32_t counter_size = 4) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy.threads = threads;
  p.policy.pixels = pixels;
  p.ordered = d::select_ordered(levels);
  p.may_overflow = d::select_may_overflow(levels, samples);
  p.counter_size = counter_size;
  return p;
}

// CUB's tile shapes for HistogramEven (sm_80 .. sm_100, 1..8-byte samples).
constexpr std::pair<std::uint32_t, std::uint32_t> kPolicies[] = {{384, 16}, {256, 8},  {928, 12},
                                                                 {448, 12}, {1024, 4}, {512, 20}};
constexpr std::uint64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
const std::int32_t kLower = -100, kUpper = 900;

std::size_t closed_bytes(const d::DispatchParams& p, d::DispatchFn fn, int levels,
                         std::uint64_t n) {
  std::size_t bytes = 0;
  return fn(p, nullptr, bytes, nullptr, nullptr, levels, &kLower, &kUpper, n, nullptr) ==
                 CUDA_SUCCESS
             ? bytes
             : 0;
}

}  // namespace

TEST(HistogramEvenSpec, ValidatesEveryField) {
  EXPECT_TRUE(Spec{}.validate());
  using S = ScalarType;
  const SpecCase<Spec> cases[] = {
      {{S::uint8, S::int32, S::uint32, S::int32}, true, ""},
      {{S::float64, S::none, S::uint64, S::int64}, true, ""},
      {{S::int64, S::float32, S::int32, S::int32}, true, ""},
      {{S::none, S::none, S::int32, S::int32}, false, "type"},
      {{S::float16, S::none, S::int32, S::int32}, false, "type"},
      {{S::bfloat16, S::none, S::int32, S::int32}, false, "type"},
      {{static_cast<S>(99), S::none, S::int32, S::int32}, false, "type"},
      {{S::int32, S::float16, S::int32, S::int32}, false, "level"},
      {{S::int32, static_cast<S>(77), S::int32, S::int32}, false, "level"},
      {{S::int32, S::none, S::int64, S::int32}, false, "counter"},
      {{S::int32, S::none, S::float32, S::int32}, false, "counter"},
      {{S::int32, S::none, S::int16, S::int32}, false, "counter"},
      {{S::int32, S::none, S::int32, S::uint32}, false, "offset"},
      {{S::int32, S::none, S::int32, S::uint64}, false, "offset"},
  };
  expect_validation<Spec>(cases);
}

TEST(HistogramEvenSpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("histogram_even");
  ASSERT_NE(entry, nullptr);
  auto spec =
      entry->from_text({{"type", "uint8", {}}, {"level", "int32", {}}, {"counter", "uint64", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec), "histogram_even type=uint8 level=int32 counter=uint64 offset=int32");
  auto plain = entry->from_text({{"type", "float32", {}}, {"offset", "int64", {}}});
  ASSERT_TRUE(plain) << plain.error().describe();
  EXPECT_EQ(spec_text(*plain), "histogram_even type=float32 level=none counter=int32 offset=int64");
  auto bad = entry->from_text({{"type", "int32", {}}, {"counter", "int64", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("counter"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(entry->from_text({{"counter", "int32", {}}}));  // type is required
}

// The bounds in the spec's types: lower < upper (NaN bounds are not), and CUB's overflow
// rule for integer bins ((upper - lower) * bins in its unsigned arithmetic).
TEST(HistogramEvenLevels, OrderAndOverflowFollowTheTypes) {
  const auto ordered_f = d::select_ordered(ScalarType::float32);
  const float f0 = 0.0f, f1 = 1.0f, nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(ordered_f(&f0, &f1));
  EXPECT_FALSE(ordered_f(&f1, &f0));
  EXPECT_FALSE(ordered_f(&f1, &f1));
  EXPECT_FALSE(ordered_f(&f0, &nan));
  EXPECT_EQ(d::select_ordered(ScalarType::float16), nullptr);
  EXPECT_EQ(d::select_may_overflow(ScalarType::int32, ScalarType::bfloat16), nullptr);

  // uint16 levels and samples: CUB bins in uint32, so 65535 * bins overflows past 65537 bins.
  const auto u16 = d::select_may_overflow(ScalarType::uint16, ScalarType::uint16);
  const std::uint16_t lo16 = 0, hi16 = 65535;
  EXPECT_FALSE(u16(65537, &hi16, &lo16));
  EXPECT_TRUE(u16(65538, &hi16, &lo16));
  // int32: in uint64, but the difference is taken in int and wraps for the full range.
  const auto i32 = d::select_may_overflow(ScalarType::int32, ScalarType::int32);
  const std::int32_t lo = std::numeric_limits<std::int32_t>::min(),
                     hi = std::numeric_limits<std::int32_t>::max();
  EXPECT_TRUE(i32(2, &hi, &lo));
  EXPECT_FALSE(i32(1 << 30, &kUpper, &kLower));
  EXPECT_FALSE(d::select_may_overflow(ScalarType::float64, ScalarType::int64)(1 << 30, &hi, &lo));
}

// Many counts, bin counts on both sides of 256, CUB's tile shapes, both offset types and
// both sample paths: the closed form equals CUB's own dispatch's answer; counts the
// offset type cannot hold are refused by both, and so are overflowing bounds (1 byte).
TEST(HistogramEvenTempStorage, ClosedFormEqualsCubDispatch) {
  int checked = 0;
  for (const auto [threads, pixels] : kPolicies) {
    const LaunchContext ctx = context(nullptr, threads);
    for (const std::uint32_t counter : {4u, 8u}) {
      const d::DispatchParams p =
          params(&ctx, ScalarType::int32, ScalarType::int32, threads, pixels, counter);
      for (const ScalarType offset : {ScalarType::int32, ScalarType::int64})
        for (const bool byte : {false, true}) {
          const d::DispatchFn closed = d::select_dispatch(offset, 4, byte);
          const d::DispatchFn cub = d::select_dispatch(offset, 4, byte, /*closed_form=*/false);
          ASSERT_NE(closed, nullptr);
          ASSERT_NE(cub, nullptr);
          const std::uint64_t max = offset == ScalarType::int32 ? kInt32Max : INT64_MAX;
          for (const int levels : {2, 3, 256, 257, 258, 1025, 2049}) {
            SCOPED_TRACE(std::to_string(threads) + "x" + std::to_string(pixels) + " levels " +
                         std::to_string(levels));
            checked += expect_closed_form_equals_cub(
                item_counts({kInt32Max, std::uint64_t{threads} * pixels,
                             std::uint64_t{threads} * pixels * 132 * 5}),
                max, [&](bool closed_form, std::uint64_t n, std::size_t& bytes) {
                  return (closed_form ? closed : cub)(p, nullptr, bytes, nullptr, nullptr, levels, &kLower,
                                                      &kUpper, n, nullptr);
                });
          }
          const std::int32_t lo = std::numeric_limits<std::int32_t>::min(),
                             hi = std::numeric_limits<std::int32_t>::max();
          std::size_t ours = 0, dispatched = 0;
          EXPECT_EQ(closed(p, nullptr, ours, nullptr, nullptr, 3, &lo, &hi, 100, nullptr),
                    CUDA_ERROR_INVALID_VALUE);
          EXPECT_EQ(cub(p, nullptr, dispatched, nullptr, nullptr, 3, &lo, &hi, 100, nullptr),
                    CUDA_ERROR_INVALID_VALUE);
          EXPECT_EQ(ours, 1u);
          EXPECT_EQ(dispatched, 1u);
        }
    }
  }
  EXPECT_GT(checked, 10000);
  EXPECT_EQ(d::select_dispatch(ScalarType::uint32, 4, false), nullptr);
  EXPECT_EQ(d::select_dispatch(ScalarType::int64, 3, false), nullptr);
  for (const std::size_t l : {1u, 2u, 8u})
    EXPECT_NE(d::select_dispatch(ScalarType::int32, l, false), nullptr);
}

// An init launch (256 threads, a block per 256 output bins), then the sweep: shared bins
// up to 256 bins (always for byte samples, 256 privatized), global ones beyond, a block
// per tile up to the kernel's resident blocks; only the init launch for no samples. Both
// with programmatic dependent launch at CC 9.0.
TEST(HistogramEvenHotPath, LaunchesOnlyTheBoundKernelsAndAllocatesNothing) {
  const LaunchContext ctx = context(&record_histogram_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  constexpr std::uint64_t tile = 384 * 16;
  for (const bool byte : {false, true}) {
    const d::DispatchFn run = d::select_dispatch(ScalarType::int32, 4, byte);
    for (const int levels : {2, 257, 258, 2049})
      for (std::uint64_t n : {0ull, 1ull, 6144ull, 6145ull, (1ull << 20) + 3, 1ull << 26}) {
        SCOPED_TRACE(std::to_string(n) + " samples, " + std::to_string(levels) + " levels" +
                     (byte ? ", bytes" : ""));
        std::size_t bytes = 0;
        ASSERT_EQ(run(p, nullptr, bytes, dev, dev, levels, &kLower, &kUpper, n, nullptr),
                  CUDA_SUCCESS);
        recorded<HistogramLaunch>().clear();
        const auto [rc, allocations] = count_allocations(
            [&] { return run(p, dev, bytes, dev, dev, levels, &kLower, &kUpper, n, nullptr); });
        EXPECT_EQ(rc, CUDA_SUCCESS);
        EXPECT_EQ(allocations, 0) << "the histogram path allocated";
        const auto& seen = recorded<HistogramLaunch>();
        ASSERT_EQ(seen.size(), n == 0 ? 1u : 2u);
        const int bins = levels - 1;
        EXPECT_EQ(seen[0].fn, kInit);
        EXPECT_EQ(seen[0].block_x, 256u);
        EXPECT_EQ(seen[0].grid_x, static_cast<unsigned>((bins + 255) / 256));
        EXPECT_EQ(seen[0].bins, bins);
        EXPECT_EQ(seen[0].num_attrs, 1u);
        if (n == 0) continue;
        const bool shared = byte || bins <= 256;
        const std::uint64_t resident = (shared ? 3 : 5) * 132;
        EXPECT_EQ(seen[1].fn, shared ? kShared : kGlobal);
        EXPECT_EQ(seen[1].block_x, 384u);
        EXPECT_EQ(seen[1].grid_x, static_cast<unsigned>(std::min((n + tile - 1) / tile, resident)));
        EXPECT_EQ(seen[1].bins, bins);
        EXPECT_EQ(seen[1].privatized, byte ? 256 : bins);
        EXPECT_EQ(seen[1].upper, kUpper);
        EXPECT_EQ(seen[1].lower, kLower);
        EXPECT_EQ(seen[1].samples, static_cast<std::int32_t>(n));
        EXPECT_EQ(seen[1].num_attrs, 1u);
      }
  }
}

TEST(HistogramEvenHotPath, BadCountsBoundsAndSmallTempStorageLaunchNothing) {
  const LaunchContext ctx = context(&record_histogram_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  const d::DispatchFn run = d::select_dispatch(ScalarType::int32, 4, false);
  recorded<HistogramLaunch>().clear();
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(run(p, dev, bytes, dev, dev, 257, &kLower, &kUpper, kInt32Max + 1, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  std::size_t small = closed_bytes(p, run, 257, 1'000'000) - 1;
  EXPECT_EQ(run(p, dev, small, dev, dev, 257, &kLower, &kUpper, 1'000'000, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  const std::int32_t lo = std::numeric_limits<std::int32_t>::min(),
                     hi = std::numeric_limits<std::int32_t>::max();
  EXPECT_EQ(run(p, dev, bytes, dev, dev, 257, &lo, &hi, 1000, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<HistogramLaunch>().empty());
}

TEST(HistogramEvenHotPath, ALaunchErrorIsReturnedAndStopsTheCall) {
  const LaunchContext ctx = context(&failing_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  const d::DispatchFn run = d::select_dispatch(ScalarType::int32, 4, false);
  std::size_t bytes = closed_bytes(p, run, 257, 1000);
  EXPECT_EQ(run(p, dev, bytes, dev, dev, 257, &kLower, &kUpper, 1000, nullptr),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

// A samples iterator is its packed bytes, handed to the driver by address; an array is
// its pointer. One entry per choice, for both CUB paths; the size is the array's; no
// allocation.
TEST(HistogramEvenHotPath, ASamplesIteratorIsPassedAsItsPackedBytes) {
  const LaunchContext ctx = context(&record_histogram_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  alignas(16) unsigned char packed[128] = {};
  for (const bool byte : {false, true}) {
    const d::DispatchFn array = d::select_dispatch(ScalarType::int32, 4, byte);
    const d::DispatchFn iterator = d::select_dispatch(ScalarType::int32, 4, byte, true, true);
    ASSERT_NE(iterator, nullptr);
    EXPECT_NE(iterator, array);
    const std::uint64_t n = 1'000'000;
    const std::size_t bytes = closed_bytes(p, array, 257, n);
    EXPECT_EQ(closed_bytes(p, iterator, 257, n), bytes);
    std::size_t have = bytes;
    recorded<HistogramLaunch>().clear();
    const auto [rc, allocations] = count_allocations(
        [&] { return iterator(p, dev, have, packed, dev, 257, &kLower, &kUpper, n, nullptr); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0);
    ASSERT_EQ(recorded<HistogramLaunch>().size(), 2u);
    EXPECT_EQ(recorded<HistogramLaunch>()[1].samples_arg, packed);
    recorded<HistogramLaunch>().clear();
    ASSERT_EQ(array(p, dev, have, dev, dev, 257, &kLower, &kUpper, n, nullptr), CUDA_SUCCESS);
    ASSERT_EQ(recorded<HistogramLaunch>().size(), 2u);
    EXPECT_EQ(recorded<HistogramLaunch>()[1].samples_ptr, dev);
  }
}
