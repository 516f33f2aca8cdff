// The hot path of a bound radix sort: CUB's dispatch (CCCL 3.5) over the bound handles
// must allocate nothing and reach the driver only through the launch and memset pointers
// fixed at bind (recorders here); its direct runtime calls (device, SM count) are answered
// from the launch context. No GPU or driver is needed: any other driver or runtime call
// fails on a machine without one and shows up as an error.
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "hot_path_support.hpp"
#include "core/materialize.hpp"
#include "radix_sort/dispatch.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace rs = cccl_cache::algos::radix_sort;

int g_memsets = 0;

CUresult record_memset(CUdeviceptr, unsigned char value, std::size_t, CUstream) {
  ++g_memsets;
  return value == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUfunction fn(std::size_t slot) { return reinterpret_cast<CUfunction>(0x1000 + slot); }

// CUB's sm_90 float32 onesweep policy shape, and a multi-pass one (2-byte keys, sm_80).
rs::Policy onesweep_policy() {
  rs::Policy p;
  p.onesweep = 1;
  p.single_tile_threads = 256, p.single_tile_items = 19;
  p.onesweep_threads = 384, p.onesweep_items = 19, p.onesweep_radix_bits = 8;
  p.histogram_threads = 128, p.exclusive_sum_threads = 256;
  return p;
}
rs::Policy multi_pass_policy() {
  rs::Policy p;
  p.single_tile_threads = 256, p.single_tile_items = 19;
  p.upsweep_threads = 512, p.upsweep_items = 23, p.alt_upsweep_threads = 256, p.alt_upsweep_items = 11;
  p.downsweep_threads = 512, p.downsweep_items = 23, p.downsweep_radix_bits = 7;
  p.alt_downsweep_threads = 256, p.alt_downsweep_items = 11, p.alt_downsweep_radix_bits = 6;
  p.scan_threads = 512, p.scan_items = 23;
  return p;
}

detail::LaunchContext bound(std::uint32_t cc, const rs::Policy& p) {
  detail::LaunchContext c = h200_context(&record_launch, int(cc) * 10);  // dependent: cc >= 90
  c.memset = &record_memset;
  c.device = 0;
  c.num_kernels = rs::kSlots;
  const auto threads = rs::detail::launch_threads(p);
  for (std::size_t i = 0; i < rs::kSlots; ++i) c.kernels[i] = {fn(i), int(threads[i]), 2, 0};
  return c;
}

void* const kKeys = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
void* const kOut = reinterpret_cast<void*>(std::uintptr_t{0x7f0800000000});
void* const kTemp = reinterpret_cast<void*>(std::uintptr_t{0x7f1000000000});

// Sorts n 4-byte keys on `ctx` with allocations counted; the recorded launches.
const std::vector<Launch>& sort(const detail::LaunchContext& ctx, const rs::Policy& p,
                                std::size_t key_size, std::uint64_t n, int end_bit) {
  const rs::detail::DispatchParams params{&ctx, p};
  const auto dispatch = rs::detail::select_dispatch(key_size, 0, ScalarType::uint32);
  EXPECT_NE(dispatch, nullptr);
  rs::DoubleBuffers none;
  std::size_t bytes = 0;
  EXPECT_EQ(dispatch(params, nullptr, bytes, none, n, 0, end_bit, false, nullptr), CUDA_SUCCESS);
  launches().clear();
  g_memsets = 0;
  rs::DoubleBuffers buffers{{kKeys, kOut}, {nullptr, nullptr}, 0};
  const auto [rc, allocations] = count_allocations(
      [&] { return dispatch(params, kTemp, bytes, buffers, n, 0, end_bit, false, nullptr); });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0) << "the sort path allocated";
  EXPECT_EQ(buffers.selector, 1) << "the plain form's output is keys[1]";
  return launches();
}

TEST(RadixSortHotPath, OnesweepWithDependentLaunchLaunchesOnlyBoundKernels) {
  const rs::Policy p = onesweep_policy();
  const auto ctx = bound(90, p);
  const std::uint64_t n = 1'000'000, tile = 384 * 19;
  const auto& seen = sort(ctx, p, 4, n, 32);
  ASSERT_EQ(seen.size(), 3u + 4u * 2u);  // init, histogram, exclusive sum; 4 x (init, onesweep)
  EXPECT_EQ(g_memsets, 0);
  EXPECT_EQ(seen[0].fn, fn(rs::init_bins));
  EXPECT_EQ(seen[0].block_x, 256u);
  EXPECT_EQ(seen[1].fn, fn(rs::histogram));
  EXPECT_EQ(seen[1].grid_x, 2u * 132u);  // bound occupancy x SMs
  EXPECT_EQ(seen[1].block_x, 128u);
  EXPECT_EQ(seen[2].fn, fn(rs::exclusive_sum));
  EXPECT_EQ(seen[2].grid_x, 4u);  // one block per pass
  for (std::size_t i = 3; i < seen.size(); i += 2) {
    EXPECT_EQ(seen[i].fn, fn(rs::init_lookback));
    EXPECT_EQ(seen[i + 1].fn, fn(rs::onesweep_kernel));
    EXPECT_EQ(seen[i + 1].grid_x, (n + tile - 1) / tile);
    EXPECT_EQ(seen[i + 1].block_x, 384u);
  }
  for (const Launch& l : seen) EXPECT_EQ(l.num_attrs, 1u) << "programmatic dependent launch";
}

TEST(RadixSortHotPath, OnesweepBelowSm90ClearsLookbackWithTheBoundMemset) {
  const rs::Policy p = onesweep_policy();
  const auto ctx = bound(80, p);
  const auto& seen = sort(ctx, p, 4, 1'000'000, 20);  // 20 bits: 3 passes
  ASSERT_EQ(seen.size(), 3u + 3u);
  EXPECT_EQ(g_memsets, 3);
  for (std::size_t i = 3; i < seen.size(); ++i) EXPECT_EQ(seen[i].fn, fn(rs::onesweep_kernel));
  for (const Launch& l : seen) EXPECT_EQ(l.num_attrs, 0u);
}

TEST(RadixSortHotPath, MultiPassLaunchesUpsweepScanDownsweepPerPass) {
  const rs::Policy p = multi_pass_policy();
  const auto ctx = bound(80, p);
  // CUB's pass planning: 14 bits are two 7-bit passes; 16 bits would leave a short third
  // pass, so it runs the 6-bit alt kernels for all three (6 + 6 + 4).
  for (auto [bits, up, down] : {std::tuple{14, rs::upsweep, rs::downsweep},
                                std::tuple{16, rs::alt_upsweep, rs::alt_downsweep}}) {
    const auto& seen = sort(ctx, p, 2, 1'000'000, bits);
    const std::size_t passes = bits == 14 ? 2 : 3;
    ASSERT_EQ(seen.size(), 3 * passes) << bits;
    for (std::size_t i = 0; i < seen.size(); i += 3) {
      const std::size_t slots[3] = {up, rs::scan_bins, down};
      for (std::size_t j = 0; j < 3; ++j) {
        EXPECT_EQ(seen[i + j].fn, fn(slots[j])) << bits << " bits, launch " << i + j;
        EXPECT_EQ(seen[i + j].block_x, unsigned(ctx.kernels[slots[j]].block_threads));
      }
      EXPECT_EQ(seen[i + 1].grid_x, 1u);  // one scan block
    }
  }
}

TEST(RadixSortHotPath, DoubleBufferFormFlipsTheSelectorOncePerPass) {
  const rs::Policy p = onesweep_policy();
  const auto ctx = bound(90, p);
  const rs::detail::DispatchParams params{&ctx, p};
  const auto dispatch = rs::detail::select_dispatch(4, 4, ScalarType::uint32);
  for (auto [bits, selector] : {std::pair{32, 1}, std::pair{24, 0}}) {  // 4 passes, 3 passes
    rs::DoubleBuffers buffers{{kOut, kKeys}, {kTemp, kOut}, 1};  // the input in keys[1]
    std::size_t bytes = 0;
    ASSERT_EQ(dispatch(params, nullptr, bytes, buffers, 1'000'000, 0, bits, true, nullptr),
              CUDA_SUCCESS);
    launches().clear();
    const auto [rc, allocations] = count_allocations(
        [&] { return dispatch(params, kTemp, bytes, buffers, 1'000'000, 0, bits, true, nullptr); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0);
    EXPECT_EQ(launches().size(), 3u + 2u * unsigned(bits / 8));
    EXPECT_EQ(buffers.selector, selector) << bits << " bits";
  }
}

TEST(RadixSortHotPath, SmallInputsUseTheSingleTileKernel) {
  const rs::Policy p = onesweep_policy();
  const auto ctx = bound(90, p);
  const auto& seen = sort(ctx, p, 4, 256 * 19, 32);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].fn, fn(rs::single_tile));
  EXPECT_EQ(seen[0].grid_x, 1u);
  EXPECT_EQ(seen[0].block_x, 256u);
}

TEST(RadixSortHotPath, TempStorageQueryAllocatesAndLaunchesNothing) {
  for (const rs::Policy& p : {onesweep_policy(), multi_pass_policy()}) {
    const auto ctx = bound(90, p);
    const rs::detail::DispatchParams params{&ctx, p};
    const auto dispatch = rs::detail::select_dispatch(8, 4, ScalarType::uint32);
    launches().clear();
    rs::DoubleBuffers none;
    std::size_t bytes = 0;
    const auto [rc, allocations] = count_allocations(
        [&] { return dispatch(params, nullptr, bytes, none, 1 << 20, 0, 64, false, nullptr); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_GT(bytes, 1u);
    EXPECT_EQ(allocations, 0);
    EXPECT_TRUE(launches().empty());
  }
}

TEST(RadixSortHotPath, ALaunchErrorIsReturnedAndStopsTheSort) {
  const rs::Policy p = onesweep_policy();
  auto ctx = bound(90, p);
  ctx.launch = &failing_launch;
  const rs::detail::DispatchParams params{&ctx, p};
  const auto dispatch = rs::detail::select_dispatch(4, 0, ScalarType::uint32);
  rs::DoubleBuffers buffers{{kKeys, kOut}, {nullptr, nullptr}, 0};
  std::size_t bytes = 1 << 26;
  EXPECT_EQ(dispatch(params, kTemp, bytes, buffers, 1'000'000, 0, 32, false, nullptr),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  EXPECT_EQ(buffers.selector, 0) << "a failed sort leaves the selector";
  std::size_t too_small = 16;
  ctx.launch = &record_launch;
  EXPECT_EQ(dispatch(params, kTemp, too_small, buffers, 1'000'000, 0, 32, false, nullptr),
            CUDA_ERROR_INVALID_VALUE);
}

// An argsort's values: one launch of the bound materialize kernel (slot 6) with the
// output, the packed counting start and the count as its arguments, before the sort.
struct FillArgs {
  void* out;
  std::int32_t start;
  unsigned long long n;
};
FillArgs g_fill;
CUresult record_fill(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
  g_fill = {*static_cast<void**>(params[0]), *static_cast<const std::int32_t*>(params[1]),
            *static_cast<const unsigned long long*>(params[2])};
  return record_launch(config, f, params, extra);
}

TEST(RadixSortHotPath, AnArgsortsValuesAreOneLaunchOfTheBoundMaterializeKernel) {
  const rs::Policy p = onesweep_policy();
  auto ctx = bound(90, p);
  ctx.launch = &record_fill;
  ctx.max_grid_dim_x = 2147483647;
  ctx.num_kernels = rs::kSlots + 1;
  ctx.kernels[rs::materialize_values] = {fn(rs::materialize_values), 256, 8, 0};
  const Iterator counting = Iterator::counting();
  const auto start = IteratorValue::counting(std::int32_t{5});
  for (std::uint64_t n : {1ull, 1'000'000ull, 1ull << 40}) {
    launches().clear();
    const auto [rc, allocations] = count_allocations([&] {
      return detail::materialize(ctx, rs::materialize_values, counting, ScalarType::int32, start,
                                 kTemp, n, nullptr);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0);
    ASSERT_EQ(launches().size(), 1u);
    EXPECT_EQ(launches()[0].fn, fn(rs::materialize_values));
    EXPECT_EQ(launches()[0].block_x, 256u);
    // A block writes 256 threads x 4 items per tile.
    EXPECT_EQ(launches()[0].grid_x, std::min<std::uint64_t>((n + 1023) / 1024, 2147483647u)) << n;
    EXPECT_EQ(launches()[0].num_attrs, 0u);
    EXPECT_EQ(g_fill.out, kTemp);
    EXPECT_EQ(g_fill.start, 5);
    EXPECT_EQ(g_fill.n, n);
  }
  launches().clear();
  EXPECT_EQ(detail::materialize(ctx, rs::materialize_values, counting, ScalarType::int32, start,
                                kTemp, 0, nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(detail::materialize(ctx, rs::materialize_values, counting, ScalarType::int32,
                                IteratorValue::array(kKeys), kTemp, 10, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(detail::materialize(ctx, rs::kSlots + 1, counting, ScalarType::int32, start, kTemp, 10,
                                nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(launches().empty()) << "no launch for nothing to fill or a refused call";
}

// The DoubleBuffers form's fill: into the caller's buffer only for a launching call over a
// non-pointer iterator that its executable allows, one launch, no allocation.
TEST(RadixSortHotPath, MaterializeIntoFillsTheBufferOnlyWhenTheCallLaunches) {
  auto ctx = bound(90, onesweep_policy());
  ctx.launch = &record_fill;
  ctx.max_grid_dim_x = 2147483647;
  ctx.num_kernels = rs::kSlots + 1;
  ctx.kernels[rs::materialize_values] = {fn(rs::materialize_values), 256, 8, 0};
  const auto start = IteratorValue::counting(std::int32_t{7});
  int asked = 0;
  auto into = [&](const Iterator& it, bool launches, CUresult usable) {
    return detail::materialize_into(ctx, rs::materialize_values, it, ScalarType::int32, start,
                                    launches, kOut, 1000, nullptr, [&] {
                                      ++asked;
                                      return usable;
                                    });
  };
  launches().clear();
  EXPECT_EQ(into(Iterator{}, true, CUDA_SUCCESS), CUDA_SUCCESS);  // a pointer: read as is
  EXPECT_EQ(into(Iterator::counting(), false, CUDA_SUCCESS), CUDA_SUCCESS);  // a size query
  EXPECT_EQ(into(Iterator::counting(), true, CUDA_ERROR_NOT_INITIALIZED),
            CUDA_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(launches().empty());
  const auto [rc, allocations] =
      count_allocations([&] { return into(Iterator::counting(), true, CUDA_SUCCESS); });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  ASSERT_EQ(launches().size(), 1u);
  EXPECT_EQ(g_fill.out, kOut);
  EXPECT_EQ(g_fill.start, 7);
  EXPECT_EQ(g_fill.n, 1000u);
}

// A call over materialized values sizes the dispatch first: too little temp storage for
// the values or for the dispatch after them is refused before the fill launches.
TEST(RadixSortHotPath, AnArgsortWithTooLittleTempStorageLaunchesNothing) {
  const rs::Policy p = onesweep_policy();
  auto ctx = bound(90, p);
  ctx.launch = &record_fill;
  ctx.num_kernels = rs::kSlots + 1;
  ctx.kernels[rs::materialize_values] = {fn(rs::materialize_values), 256, 8, 0};
  const Iterator counting = Iterator::counting();
  const auto start = IteratorValue::counting(std::int32_t{5});
  constexpr std::uint64_t n = 1000;
  const std::size_t values = *detail::materialized_bytes(n, ScalarType::int32);
  int dispatched = 0;
  auto sort = [&](void* temp, std::size_t& bytes, void*) {
    if (temp == nullptr) {
      bytes = 512;
      return CUDA_SUCCESS;
    }
    ++dispatched;
    return bytes >= 512 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  };
  std::size_t bytes = 0;
  ASSERT_EQ(detail::materialized_call(ctx, rs::materialize_values, counting, ScalarType::int32,
                                      start, nullptr, bytes, n, nullptr, sort),
            CUDA_SUCCESS);
  EXPECT_EQ(bytes, values + 512);
  for (std::size_t given : {std::size_t{0}, values - 1, values, values + 511}) {
    launches().clear();
    EXPECT_EQ(detail::materialized_call(ctx, rs::materialize_values, counting, ScalarType::int32,
                                        start, kTemp, given, n, nullptr, sort),
              CUDA_ERROR_INVALID_VALUE)
        << given;
    EXPECT_TRUE(launches().empty()) << given;
  }
  EXPECT_EQ(dispatched, 0);
  launches().clear();
  EXPECT_EQ(detail::materialized_call(ctx, rs::materialize_values, counting, ScalarType::int32,
                                      start, kTemp, bytes, n, nullptr, sort),
            CUDA_SUCCESS);
  EXPECT_EQ(launches().size(), 1u);
  EXPECT_EQ(dispatched, 1);
}

}  // namespace
