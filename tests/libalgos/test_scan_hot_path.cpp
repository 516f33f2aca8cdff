// The hot path of a bound scan: what Executable<Id>'s call runs after bind (CUB's scan
// dispatch over the bound handles) must allocate nothing and reach the driver only
// through the cuLaunchKernelEx pointer fixed at bind time. Here that pointer is a
// recorder, the kernels are stand-in handles and device pointers are never
// dereferenced by the host code, so no GPU (and no driver) is needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/iterator.hpp"
#include "hot_path_support.hpp"
#include "scan/dispatch.hpp"
#include "scan_policies.hpp"

namespace {

using namespace test_support;
using cccl_cache::algos::ScalarType;
namespace d = cccl_cache::algos::scan::detail;

struct ScanLaunch : Launch {
  double init;  // the scan kernel's init value (exclusive, double elements), else 0
  bool future;  // its InputValue's flag: read from device memory (FutureValue)
  const void* future_ptr;  // then the device address it reads
  const void* op_arg;  // the scan kernel's operator argument pointer (5th), else null
  const void* in_arg;  // the scan kernel's input argument pointer (1st), else null
  const void* out_arg;  // the scan kernel's output argument pointer (2nd), else null
};
bool g_exclusive_double = false;

const CUfunction kInit = reinterpret_cast<CUfunction>(0x2001);
const CUfunction kScan = reinterpret_cast<CUfunction>(0x2002);

CUresult record_scan_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr || params[0] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  double init = 0;
  bool future = false;
  const void* future_ptr = nullptr;
  // DeviceScanKernel(d_in, d_out, tile_state, start_tile, scan_op, init_value, ...):
  // InputValue<T> is its flag, then (at offset 8) the immediate value or FutureValue's
  // pointer.
  if (fn == kScan && g_exclusive_double) {
    const auto* arg = static_cast<const char*>(params[5]);
    std::memcpy(&future, arg, sizeof future);
    std::memcpy(future ? static_cast<void*>(&future_ptr) : static_cast<void*>(&init), arg + 8, 8);
  }
  recorded<ScanLaunch>().push_back(
      {launch_of(config, fn), init, future, future_ptr, fn == kScan ? params[4] : nullptr,
       fn == kScan ? params[0] : nullptr, fn == kScan ? params[1] : nullptr});
  return CUDA_SUCCESS;
}

cccl_cache::algos::detail::LaunchContext bound_context(int ptx_version, int scan_threads,
                                                       decltype(&::cuLaunchKernelEx) launch) {
  auto c = h200_context(launch, ptx_version);
  c.max_grid_dim_x = 2147483647;
  c.num_kernels = 2;
  c.kernels[0] = {kInit, 128, 16, 0};
  c.kernels[1] = {kScan, scan_threads, 4, 200 * 1024};
  return c;
}
const auto kSm90 = bound_context(900, 128, &record_scan_launch);
const auto kSm100 = bound_context(1000, 352, &record_scan_launch);

// The layout of `element`-byte items summed in their own type.
d::StateLayout layout(std::size_t element) { return d::state_layout(element, element).value(); }

d::DispatchParams lookback(std::size_t element = 8) {  // CUB's float policy on sm_90
  d::DispatchParams p;
  p.launch = &kSm90;
  p.layout = layout(element);
  p.policy.block_threads = 128;
  p.policy.items_per_thread = 24;
  return p;
}

d::DispatchParams lookahead(std::size_t element = 8) {  // CUB's float policy on sm_100
  d::DispatchParams p;
  p.launch = &kSm100;
  p.layout = layout(element);
  p.policy = test_support::scan_lookahead_policy();
  return p;
}

void* const kDev = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
void* const kTemp = reinterpret_cast<void*>(std::uintptr_t{0x7f1000000000});

// The operator argument of a stateless operator (core/launch.hpp).
const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

// Runs one scan with allocations counted, its operator argument copied from `op_state`;
// returns the launches it made.
std::vector<ScanLaunch> scan(const d::DispatchParams& p, d::DispatchFn fn, std::uint64_t items,
                             d::InitValue h_init, CUresult& rc, const void* op_state = kNoState) {
  std::size_t bytes = 0;
  EXPECT_EQ(fn(p, nullptr, bytes, nullptr, nullptr, items, nullptr, nullptr, nullptr),
            CUDA_SUCCESS);
  recorded<ScanLaunch>().clear();
  const auto counted = count_allocations(
      [&] { return fn(p, kTemp, bytes, kDev, kDev, items, h_init, nullptr, op_state); });
  rc = counted.result;
  EXPECT_EQ(counted.allocations, 0) << "the scan path allocated";
  return recorded<ScanLaunch>();
}

TEST(ScanHotPath, LookbackLaunchesInitThenScanAndAllocatesNothing) {
  for (bool exclusive : {false, true}) {
    g_exclusive_double = exclusive;
    const d::DispatchFn fn = d::select_dispatch(8, 8, ScalarType::uint64, exclusive);
    ASSERT_NE(fn, nullptr);
    const double init = 42.5;
    for (std::uint64_t items : {1ull, 3072ull, 3073ull, 1'000'003ull}) {
      SCOPED_TRACE(items);
      CUresult rc;
      const auto seen = scan(lookback(), fn, items, exclusive ? &init : nullptr, rc);
      EXPECT_EQ(rc, CUDA_SUCCESS);
      const unsigned tiles = static_cast<unsigned>((items + 3071) / 3072);
      ASSERT_EQ(seen.size(), 2u);
      EXPECT_EQ(seen[0].fn, kInit);
      EXPECT_EQ(seen[0].block_x, 128u);
      EXPECT_EQ(seen[0].grid_x, (tiles + 127) / 128);
      EXPECT_EQ(seen[1].fn, kScan);
      EXPECT_EQ(seen[1].block_x, 128u);
      EXPECT_EQ(seen[1].grid_x, tiles);
      EXPECT_EQ(seen[1].shared, 0u);
      EXPECT_EQ(seen[1].init, exclusive ? 42.5 : 0.0);
      EXPECT_FALSE(seen[1].future);
      for (const Launch& l : seen) EXPECT_EQ(l.num_attrs, 1u) << "programmatic dependent launch";
    }
  }
  g_exclusive_double = false;
}

// An initial value in device memory: the same kernel argument, InputValue<T>, flagged as
// CUB's FutureValue and holding the device address; the launches are the host value's.
TEST(ScanHotPath, DeviceInitialValueIsAFutureValueArgument) {
  g_exclusive_double = true;
  const d::DispatchFn fn = d::select_dispatch(8, 8, ScalarType::uint64, true);
  ASSERT_NE(fn, nullptr);
  for (bool ahead : {false, true}) {
    SCOPED_TRACE(ahead ? "lookahead" : "lookback");
    void* const d_init = reinterpret_cast<void*>(std::uintptr_t{0x7f2000000040});
    CUresult rc;
    const auto seen =
        scan(ahead ? lookahead() : lookback(), fn, 1'000'003, d::InitValue::on_device(d_init), rc);
    EXPECT_EQ(rc, CUDA_SUCCESS);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[1].fn, kScan);
    EXPECT_TRUE(seen[1].future);
    EXPECT_EQ(seen[1].future_ptr, d_init);
    const double host = 7.25;
    const auto immediate = scan(ahead ? lookahead() : lookback(), fn, 1'000'003, &host, rc);
    ASSERT_EQ(immediate.size(), 2u);
    EXPECT_FALSE(immediate[1].future);
    EXPECT_EQ(immediate[1].init, 7.25);
    EXPECT_EQ(immediate[1].grid_x, seen[1].grid_x);
    EXPECT_EQ(immediate[1].shared, seen[1].shared);
  }
  g_exclusive_double = false;
}

TEST(ScanHotPath, LookaheadLaunchesWithDynamicSharedMemory) {
  const d::DispatchFn fn = d::select_dispatch(4, 4, ScalarType::uint64, false);
  CUresult rc;
  const std::uint64_t items = 1'000'003;
  const auto seen = scan(lookahead(4), fn, items, nullptr, rc);
  EXPECT_EQ(rc, CUDA_SUCCESS);
  const unsigned tiles = static_cast<unsigned>((items + 11135) / 11136);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].fn, kInit);
  EXPECT_EQ(seen[0].grid_x, (tiles + 127) / 128);
  EXPECT_EQ(seen[1].fn, kScan);
  EXPECT_EQ(seen[1].block_x, 352u);
  EXPECT_EQ(seen[1].grid_x, tiles);  // atomic tile scheduling only on CC 9.0
  EXPECT_GT(seen[1].shared, 0u);
  EXPECT_LE(seen[1].shared, 200u * 1024u);
}

// A stateful operator: the scan kernel's operator argument is the call's state address
// (OpArg), which the driver copies the kernel parameter from; still no allocation.
TEST(ScanHotPath, StatefulOperatorArgumentIsTheStateAddress) {
  const double state[2] = {2.0, 3.0};
  for (bool ahead : {false, true}) {
    SCOPED_TRACE(ahead ? "lookahead" : "lookback");
    const d::DispatchFn fn = d::select_dispatch(4, 4, ScalarType::uint64, false);
    CUresult rc;
    const auto seen = scan(ahead ? lookahead(4) : lookback(4), fn, 1'000'003, nullptr, rc, state);
    EXPECT_EQ(rc, CUDA_SUCCESS);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[1].fn, kScan);
    EXPECT_EQ(seen[1].op_arg, static_cast<const void*>(state));
    const auto stateless = scan(ahead ? lookahead(4) : lookback(4), fn, 1'000'003, nullptr, rc);
    ASSERT_EQ(stateless.size(), 2u);
    EXPECT_EQ(stateless[1].op_arg, kNoState);
  }
}

// An input iterator's values are packed on the stack and their address is the scan
// kernel's input argument (the driver copies the kernel's iterator from it); the
// initial-value argument is unchanged. Packing and scan allocate nothing.
TEST(ScanHotPath, AnInputIteratorsPackedBytesAreTheScanKernelsInputAndNothingAllocates) {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::IteratorValue;
  namespace core = cccl_cache::algos::detail;
  g_exclusive_double = true;
  const d::DispatchFn fn = d::select_dispatch(8, 8, ScalarType::uint64, /*with_init=*/true,
                                              /*closed_form=*/true, /*iterator_input=*/true);
  ASSERT_NE(fn, nullptr);
  const Iterator it = Iterator::counting(ScalarType::int64);
  const double init = 1.5;
  for (const std::uint64_t n : {1ull, 3073ull, 1'000'003ull}) {
    SCOPED_TRACE(n);
    std::size_t bytes = 0;
    ASSERT_EQ(fn(lookback(), nullptr, bytes, nullptr, kDev, n, nullptr, nullptr, nullptr),
              CUDA_SUCCESS);
    recorded<ScanLaunch>().clear();
    core::IteratorArg packed;
    const auto [rc, allocations] = count_allocations([&] {
      if (!core::pack_iterator(it, ScalarType::float64, IteratorValue::counting(std::int64_t{7}),
                               n, packed))
        return CUDA_ERROR_INVALID_VALUE;
      return fn(lookback(), kTemp, bytes, packed.bytes, kDev, n, &init, nullptr, kNoState);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the iterator path allocated";
    const auto& seen = recorded<ScanLaunch>();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[1].fn, kScan);
    EXPECT_EQ(seen[1].in_arg, static_cast<const void*>(packed.bytes));
    EXPECT_EQ(seen[1].init, 1.5);
    EXPECT_EQ(seen[1].grid_x, static_cast<unsigned>((n + 3071) / 3072));
  }
  g_exclusive_double = false;
}

// An output iterator likewise: its packed bytes' address is the scan kernel's output
// argument, beside an input array or an input iterator's bytes; nothing allocates.
TEST(ScanHotPath, AnOutputIteratorsPackedBytesAreTheScanKernelsOutputAndNothingAllocates) {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::IteratorValue;
  namespace core = cccl_cache::algos::detail;
  const Iterator out_it = Iterator::transform(cccl_cache::algos::Operator::of(
                                                  cccl_cache::algos::OpKind::negate),
                                              ScalarType::float64);
  for (const bool input_iterator : {false, true}) {
    SCOPED_TRACE(input_iterator ? "input iterator" : "input array");
    const d::DispatchFn fn = d::select_dispatch(4, 4, ScalarType::uint64, /*with_init=*/false,
                                                /*closed_form=*/true, input_iterator,
                                                /*iterator_output=*/true);
    ASSERT_NE(fn, nullptr);
    ASSERT_NE(fn, d::select_dispatch(4, 4, ScalarType::uint64, false, true, input_iterator, false));
    const std::uint64_t n = 1'000'003;
    std::size_t bytes = 0;
    ASSERT_EQ(fn(lookback(4), nullptr, bytes, nullptr, nullptr, n, nullptr, nullptr, nullptr),
              CUDA_SUCCESS);
    recorded<ScanLaunch>().clear();
    core::IteratorArg packed_in, packed_out;
    const void* in = nullptr;
    const void* out = nullptr;
    const auto [rc, allocations] = count_allocations([&] {
      const IteratorValue in_value =
          input_iterator ? IteratorValue::counting(std::int32_t{3}) : IteratorValue::array(kDev);
      if (!core::iterator_address(input_iterator ? Iterator::counting() : Iterator{},
                                  ScalarType::int32, in_value, n, packed_in, in) ||
          !core::iterator_address(out_it, ScalarType::float32, IteratorValue::transform(kDev), n,
                                  packed_out, out))
        return CUDA_ERROR_INVALID_VALUE;
      return fn(lookback(4), kTemp, bytes, in, const_cast<void*>(out), n, nullptr, nullptr,
                kNoState);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the output iterator path allocated";
    const auto& seen = recorded<ScanLaunch>();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[1].fn, kScan);
    EXPECT_EQ(seen[1].out_arg, static_cast<const void*>(packed_out.bytes));
    // (An array's argument is a copy of the pointer on the dispatch's stack, gone by now.)
    if (input_iterator) EXPECT_EQ(seen[1].in_arg, static_cast<const void*>(packed_in.bytes));
    const void* p = nullptr;
    std::memcpy(&p, packed_out.bytes, sizeof p);
    EXPECT_EQ(p, kDev) << "a transform output packs its array's address";
  }
}

TEST(ScanHotPath, EmptyInputLaunchesNothing) {
  CUresult rc;
  EXPECT_TRUE(scan(lookback(4), d::select_dispatch(4, 4, ScalarType::uint32, false), 0, nullptr, rc).empty());
  EXPECT_EQ(rc, CUDA_SUCCESS);
}

TEST(ScanHotPath, ALaunchErrorIsReturned) {
  d::DispatchParams p = lookback(4);
  const auto failing = bound_context(900, 128, &failing_launch);
  p.launch = &failing;
  const d::DispatchFn fn = d::select_dispatch(4, 4, ScalarType::uint64, false);
  std::size_t bytes = 0;
  fn(p, nullptr, bytes, nullptr, nullptr, 5000, nullptr, nullptr, nullptr);
  EXPECT_EQ(fn(p, kTemp, bytes, kDev, kDev, 5000, nullptr, nullptr, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

TEST(ScanHotPath, OccupancyForAnotherBlockSizeFailsInsteadOfAskingTheDriver) {
  // The bind fixed the scan kernel's occupancy at 128 threads; a policy of 256 would
  // make CUB ask for 256, which the context cannot answer.
  d::DispatchParams p = lookback(4);
  p.policy.block_threads = 256;
  p.policy.items_per_thread = 12;
  CUresult rc;
  const auto seen = scan(p, d::select_dispatch(4, 4, ScalarType::uint64, false), 10'000, nullptr, rc);
  EXPECT_EQ(rc, CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(seen.size(), 1u);  // the init kernel, before CUB asks for the occupancy
}

}  // namespace
