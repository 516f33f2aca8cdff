// The hot path of a bound transform: after bind (whose configure() ran CUB's own launch
// configuration once), a call is CUB's transform dispatch over the bound kernel. It
// must allocate nothing, ask the driver nothing and launch only the bound kernel, with
// the grid, block and dynamic shared memory CUB's dispatch computes. The driver's launch
// and occupancy are recorders here; no GPU or driver is needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "hot_path_support.hpp"
#include "transform/dispatch.hpp"

// The operator argument of a stateless operator (core/launch.hpp).
static const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

namespace {

using namespace test_support;
namespace t = cccl_cache::algos::transform_kernel;
namespace d = cccl_cache::algos::transform::detail;
using cccl_cache::algos::detail::LaunchContext;

const CUfunction kTransform = reinterpret_cast<CUfunction>(0x2001);
std::vector<std::size_t> g_smem_asked;
// Occupancy as an H200 gives it for small tiles: 8 blocks of 256 threads.
CUresult fake_occupancy(int* blocks, CUfunction fn, int threads, std::size_t smem) {
  if (fn != kTransform || threads != 256) return CUDA_ERROR_INVALID_VALUE;
  g_smem_asked.push_back(smem);
  *blocks = 8;
  return CUDA_SUCCESS;
}

const LaunchContext kRecording = [] {
  LaunchContext c = h200_context(&record_launch);
  c.max_grid_dim_x = 2147483647;
  c.num_kernels = 1;
  c.kernels[0] = {kTransform, 256, 8, 200 * 1024};
  return c;
}();

// configure() over the dry-run context a bind gives it (core/executable_state.hpp
// dry_run): no launch, the occupancies from fake_occupancy, whose failures are kept.
CUresult configure(d::DispatchParams& p) {
  CUresult occupancy_error = CUDA_SUCCESS;
  LaunchContext dry = *p.launch;
  dry.launch = nullptr;
  dry.occupancy = &fake_occupancy;
  dry.occupancy_error = &occupancy_error;
  const CUresult rc = t::detail::configure(p, dry);
  return occupancy_error != CUDA_SUCCESS ? occupancy_error : rc;
}

// Every input an array (dispatch_for).
const bool kArrays[2] = {false, false};

// CUB 3.5's policy on sm_90 for float32 inputs (probe values).
d::DispatchParams params(std::uint32_t algorithm, int num_inputs) {
  d::DispatchParams p;
  p.launch = &kRecording;
  p.policy = {algorithm, 256, 48 * 1024, 256, 2, 1, 32, 256, 8, 4, 256, 1, 32};
  p.num_inputs = num_inputs;
  p.in_size[0] = p.in_size[1] = p.out_size = 4;
  return p;
}

TEST(TransformHotPath, ConfigureRunsCubsSearchOnceAtBind) {
  d::DispatchParams p = params(t::ublkcp, 2);
  g_smem_asked.clear();
  ASSERT_EQ(configure(p), CUDA_SUCCESS);
  // CUB raises items per thread until 48 KiB are in flight per SM: 8 blocks x 256 threads
  // x 8 bytes x 3 items. Shared memory per tile: 128 + 2 x (128 + 4 x tile) (ublkcp, sm_90).
  EXPECT_EQ(g_smem_asked, (std::vector<std::size_t>{2432, 4480, 6528}));
  EXPECT_TRUE(p.async_config.set);
  EXPECT_EQ(p.async_config.items_per_thread, 3);
  EXPECT_EQ(p.async_config.max_occupancy, 8);
  EXPECT_EQ(p.async_config.sm_count, 132);
  EXPECT_TRUE(launches().empty()) << "configure launched";
}

TEST(TransformHotPath, AFailedOccupancyQueryFailsTheConfiguration) {
  d::DispatchParams p = params(t::ublkcp, 2);
  CUresult occupancy_error = CUDA_SUCCESS;
  LaunchContext dry = *p.launch;
  dry.launch = nullptr;
  dry.occupancy = [](int*, CUfunction, int, std::size_t) { return CUDA_ERROR_INVALID_CONTEXT; };
  dry.occupancy_error = &occupancy_error;
  EXPECT_NE(t::detail::configure(p, dry), CUDA_SUCCESS);
  EXPECT_EQ(occupancy_error, CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_FALSE(p.async_config.set);
}

struct Case {
  std::uint64_t items;
  unsigned grid, smem;
};

TEST(TransformHotPath, CallLaunchesOnlyTheBoundKernelAndAllocatesNothing) {
  d::DispatchParams p = params(t::ublkcp, 2);
  ASSERT_EQ(configure(p), CUDA_SUCCESS);
  const d::DispatchFn run = d::dispatch_for(2, kArrays, false);
  ASSERT_NE(run, nullptr);
  const void* ins[2] = {device_address(0x7f0000000000), device_address(0x7f1000000000)};
  // Items per thread spread out for small inputs: min(3, ceil(n / (132 x 256 x 8))).
  for (const Case c : {Case{1000, 4, 2432}, Case{1u << 20, 1366, 6528}, Case{1u << 28, 349526, 6528}}) {
    SCOPED_TRACE(c.items);
    launches().clear();
    const auto [rc, allocations] =
        count_allocations([&] { return run(p, ins, device_address(0x7f2000000000), c.items, nullptr, kNoState); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the call allocated";
    ASSERT_EQ(launches().size(), 1u);
    const Launch& l = launches()[0];
    EXPECT_EQ(l.fn, kTransform);
    EXPECT_EQ(l.grid_x, c.grid);
    EXPECT_EQ(l.block_x, 256u);
    EXPECT_EQ(l.shared, c.smem);
    EXPECT_EQ(l.num_attrs, 1u) << "programmatic dependent launch";
  }
  launches().clear();
  EXPECT_EQ(run(p, ins, device_address(0x7f2000000000), 0, nullptr, kNoState), CUDA_SUCCESS);
  EXPECT_TRUE(launches().empty());
  EXPECT_EQ(run(p, ins, device_address(0x7f2000000000), std::uint64_t{1} << 63, nullptr, kNoState), CUDA_ERROR_INVALID_VALUE);
}

TEST(TransformHotPath, PrefetchPathUsesTheConfigurationFixedAtBind) {
  d::DispatchParams p = params(t::prefetch, 1);
  ASSERT_EQ(configure(p), CUDA_SUCCESS);
  EXPECT_TRUE(p.prefetch_config.set);
  EXPECT_FALSE(p.async_config.set);
  const void* ins[1] = {device_address(0x7f0000000004)};
  launches().clear();
  // ceil(48 KiB / (8 x 256 x 4)) = 6 items, spread to min(6, ceil(2^20 / (132 x 256 x 8))) = 4.
  const auto [rc, allocations] = count_allocations([&] {
    return d::dispatch_for(1, kArrays, false)(p, ins, device_address(0x7f2000000000), 1u << 20,
                                              nullptr, kNoState);
  });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  ASSERT_EQ(launches().size(), 1u);
  EXPECT_EQ(launches()[0].grid_x, 1024u);
  EXPECT_EQ(launches()[0].shared, 0u);
}

TEST(TransformHotPath, WithoutConfigurationOrWithAFailingLaunchTheCallFails) {
  const void* ins[2] = {device_address(0x7f0000000000), device_address(0x7f1000000000)};
  d::DispatchParams unconfigured = params(t::ublkcp, 2);
  launches().clear();
  EXPECT_EQ(d::dispatch_for(2, kArrays, false)(unconfigured, ins, device_address(0x7f2000000000),
                                               1000, nullptr, kNoState),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(launches().empty());
  d::DispatchParams p = params(t::ublkcp, 2);
  ASSERT_EQ(configure(p), CUDA_SUCCESS);
  LaunchContext failing = kRecording;
  failing.launch = &failing_launch;
  p.launch = &failing;
  EXPECT_EQ(d::dispatch_for(2, kArrays, false)(p, ins, device_address(0x7f2000000000), 1000,
                                               nullptr, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

// What a launch hands the driver for the kernel's output and inputs (arguments 5, 6, 7:
// after num_items, items per thread, can_vectorize, the predicate and the operator).
struct ArgumentLaunch {
  const void* out;
  const void* in[2];
  bool can_vectorize;
};
ArgumentLaunch g_arguments;
CUresult record_arguments(const CUlaunchConfig*, CUfunction, void** params, void**) {
  g_arguments = {params[5], {params[6], params[7]}, *static_cast<const bool*>(params[2])};
  return CUDA_SUCCESS;
}

// An iterator's kernel argument is its packed bytes, handed to the driver by address (the
// kernel's kernel_arg<It> union starts with the iterator); an array's is its pointer. CUB's
// vectorized path counts an iterator as aligned, as its own kernel source does.
TEST(TransformHotPath, IteratorsArePassedAsTheirPackedBytes) {
  LaunchContext context = kRecording;
  context.launch = &record_arguments;
  d::DispatchParams p = params(t::vectorized, 2);
  p.launch = &context;
  ASSERT_EQ(configure(p), CUDA_SUCCESS);
  const bool first_iterator[2] = {true, false};
  const d::DispatchFn run = d::dispatch_for(2, first_iterator, true);
  ASSERT_NE(run, nullptr);
  EXPECT_NE(run, d::dispatch_for(2, kArrays, false));
  EXPECT_EQ(d::dispatch_for(3, kArrays, false), nullptr);
  alignas(16) unsigned char in_bytes[128] = {}, out_bytes[128] = {};
  const void* array = device_address(0x7f1000000000);
  const void* ins[2] = {in_bytes, array};
  g_arguments = {};
  const auto [rc, allocations] =
      count_allocations([&] { return run(p, ins, out_bytes, 1u << 20, nullptr, kNoState); });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(g_arguments.out, out_bytes);
  EXPECT_EQ(g_arguments.in[0], in_bytes);
  ASSERT_NE(g_arguments.in[1], nullptr);
  EXPECT_EQ(*static_cast<const void* const*>(g_arguments.in[1]), array);
  EXPECT_TRUE(g_arguments.can_vectorize);
  // A misaligned array still turns vectorization off.
  ins[1] = device_address(0x7f1000000004);
  ASSERT_EQ(run(p, ins, out_bytes, 1u << 20, nullptr, kNoState), CUDA_SUCCESS);
  EXPECT_FALSE(g_arguments.can_vectorize);
}

}  // namespace
