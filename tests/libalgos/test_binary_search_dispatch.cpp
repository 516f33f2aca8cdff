// Binary search's host side without a GPU: spec validation and spec text; the
// closed-form temp-storage size (DeviceFind's one byte) against the dispatch answering as
// DeviceFind does; and the hot path: a call allocates nothing and launches only the bound
// transform kernel, with CUB's search operator over the range as its operator argument
// (a recorder stands in for the driver; device pointers are never dereferenced).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "binary_search/dispatch.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "closed_form_support.hpp"
#include "core/dispatch_abi.hpp"
#include "hot_path_support.hpp"
#include "spec_cases.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::binary_search::detail;
using binary_search::Spec;
using LaunchContext = cccl_cache::algos::detail::LaunchContext;

const CUfunction kTransform = reinterpret_cast<CUfunction>(0x7001);

// The transform kernel's arguments: count, items per thread, can vectorize, predicate,
// the search operator {range, range count, comparator}, output, input.
struct SearchLaunch : Launch {
  std::int64_t num_values;
  const void* range;
  std::uint64_t num_items;
  std::uint64_t state = 0;       // a stateful comparator's first 8 state bytes (at 16)
  const void* out = nullptr;     // the output's and the values' argument pointers
  const void* values = nullptr;  // (6th and 7th)
};
CUresult record_search_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  for (int i = 0; i < 7; ++i)
    if (params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  SearchLaunch l{launch_of(config, fn), 0, nullptr, 0};
  std::memcpy(&l.num_values, params[0], sizeof l.num_values);
  std::memcpy(&l.range, params[4], sizeof l.range);
  std::memcpy(&l.num_items, static_cast<const char*>(params[4]) + 8, sizeof l.num_items);
  std::memcpy(&l.state, static_cast<const char*>(params[4]) + 16, sizeof l.state);
  l.out = params[5];
  l.values = params[6];
  recorded<SearchLaunch>().push_back(l);
  return CUDA_SUCCESS;
}
// A range iterator's search operator: its bytes up to the comparator's first 8.
std::vector<std::array<unsigned char, d::kRangeBytes + 24>>& range_ops() {
  static std::vector<std::array<unsigned char, d::kRangeBytes + 24>> ops = [] {
    std::vector<std::array<unsigned char, d::kRangeBytes + 24>> v;
    v.reserve(16);  // recording allocates nothing in the calls the tests count
    return v;
  }();
  return ops;
}
CUresult record_range_search_launch(const CUlaunchConfig* config, CUfunction fn, void** params,
                                    void** extra) {
  if (params == nullptr || params[4] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  range_ops().emplace_back();
  std::memcpy(range_ops().back().data(), params[4], range_ops().back().size());
  return record_search_launch(config, fn, params, extra);
}
CUresult fake_occupancy(int* blocks, CUfunction, int, std::size_t) {
  *blocks = 8;
  return CUDA_SUCCESS;
}

LaunchContext context(decltype(&::cuLaunchKernelEx) launch) {
  LaunchContext c = h200_context(launch);
  c.max_grid_dim_x = 2147483647;
  c.num_kernels = 1;
  c.kernels[0] = {kTransform, 256, 8, 200 * 1024};
  return c;
}

// CUB 3.5's sm_90 transform policy (prefetch) for one 4-byte input, configured as a bind
// does (transform_kernel::detail::configure over a dry-run context).
d::DispatchParams params(const LaunchContext* ctx) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy = {transform_kernel::prefetch, 256, 48 * 1024, 256, 2, 1, 32, 256, 8, 4, 256, 1, 32};
  p.num_inputs = 1;
  p.in_size[0] = 4;
  p.out_size = 8;
  LaunchContext dry = *ctx;
  dry.launch = nullptr;
  dry.occupancy = &fake_occupancy;
  EXPECT_EQ(transform_kernel::detail::configure(p, dry), CUDA_SUCCESS);
  p.launch = ctx;
  return p;
}

}  // namespace

TEST(BinarySearchSpec, ValidatesEveryField) {
  EXPECT_TRUE(Spec{}.validate());
  using S = ScalarType;
  const auto custom =
      Operator::custom("abs_less", "__device__ bool abs_less(float a, float b) { return a < b; }");
  const SpecCase<Spec> cases[] = {
      {{S::float16, S::int32, Operator::greater(), true}, true, ""},
      {{S::bfloat16, S::uint32, custom, false}, true, ""},
      {{S::uint64, S::uint64, Operator::less(), true}, true, ""},
      {{S::none}, false, "type"},
      {{static_cast<S>(99)}, false, "type"},
      {{S::int32, S::int16}, false, "out"},
      {{S::int32, S::float32}, false, "out"},
      {{S::int32, S::int64, Operator::of(OpKind::plus)}, false, "compare"},
      {{S::int32, S::int64, Operator::custom("cccl_cache_x", "int x;")}, false, "compare"},
      {{S::int32, S::int64, Operator::custom("f", " ")}, false, "compare"},
  };
  expect_validation<Spec>(cases);
}

TEST(BinarySearchSpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("binary_search");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text(
      {{"type", "float64", {}}, {"upper", "true", {}}, {"compare", "greater", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec), "binary_search type=float64 out=int64 compare=greater upper=true");
  EXPECT_EQ(spec_text(binary_search::lower_bound(ScalarType::int32)),
            "binary_search type=int32 out=int64 compare=less upper=false");
  auto bad = entry->from_text({{"type", "int32", {}}, {"compare", "plus", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("compare"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(entry->from_text({{"upper", "true", {}}}));  // type is required
}

// Every out type, many counts: the closed form equals the dispatch's own answer; counts
// the out type (range) or int64 (values) cannot hold are refused by both.
TEST(BinarySearchTempStorage, ClosedFormEqualsTheDispatch) {
  const LaunchContext ctx = context(nullptr);
  const d::DispatchParams p = params(&ctx);
  int checked = 0;
  for (const ScalarType out :
       {ScalarType::int32, ScalarType::uint32, ScalarType::int64, ScalarType::uint64}) {
    const d::DispatchFn closed = d::select_dispatch(out);
    const d::DispatchFn reference = d::select_dispatch(out, /*closed_form=*/false);
    ASSERT_NE(closed, nullptr);
    ASSERT_NE(reference, nullptr);
    const std::uint64_t max = out == ScalarType::int32    ? INT32_MAX
                              : out == ScalarType::uint32 ? UINT32_MAX
                                                          : INT64_MAX;  // indices are ptrdiff_t
    for (std::uint64_t n : item_counts(
             {std::uint64_t{INT32_MAX}, std::uint64_t{UINT32_MAX} + 1, std::uint64_t{INT64_MAX}})) {
      for (std::uint64_t values : {std::uint64_t{0}, n, std::uint64_t{INT64_MAX} + 1}) {
        std::size_t ours = 7, theirs = 8;
        const CUresult a = closed(p, nullptr, ours, nullptr, n, nullptr, values, nullptr, nullptr, 0, nullptr);
        const CUresult b =
            reference(p, nullptr, theirs, nullptr, n, nullptr, values, nullptr, nullptr, 0, nullptr);
        ASSERT_EQ(a, b) << n << " " << values;
        if (n > max || values > std::uint64_t{INT64_MAX}) {
          EXPECT_EQ(a, CUDA_ERROR_INVALID_VALUE) << n;
          continue;
        }
        ASSERT_EQ(a, CUDA_SUCCESS);
        EXPECT_EQ(ours, 1u);
        EXPECT_EQ(ours, theirs);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
  EXPECT_EQ(d::select_dispatch(ScalarType::int16), nullptr);
}

// The device addresses of a search's range, values, output and temp storage.
struct SearchArrays {
  void* range = device_address(0x7f0000000000);
  void* values = device_address(0x7f1000000000);
  void* out = device_address(0x7f2000000000);
  void* temp = device_address(0x7f3000000000);
};

TEST(BinarySearchHotPath, LaunchesOnlyTheBoundKernelWithTheSearchOperator) {
  const LaunchContext ctx = context(&record_search_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(ScalarType::int64);
  const auto [range, values, out, temp] = SearchArrays{};
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{1023}, (std::uint64_t{1} << 33) + 5}) {
    SCOPED_TRACE(n);
    recorded<SearchLaunch>().clear();
    std::size_t bytes = 1;
    const auto [rc, allocations] = count_allocations(
        [&] { return run(p, temp, bytes, range, n, values, 1u << 20, out, nullptr, 0, nullptr); });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the binary search path allocated";
    ASSERT_EQ(recorded<SearchLaunch>().size(), 1u);
    const SearchLaunch& l = recorded<SearchLaunch>()[0];
    EXPECT_EQ(l.fn, kTransform);
    EXPECT_EQ(l.block_x, 256u);
    EXPECT_EQ(l.num_values, 1 << 20);
    EXPECT_EQ(l.range, range);
    EXPECT_EQ(l.num_items, n);
  }
  // No values: no launch, as CUB's transform.
  recorded<SearchLaunch>().clear();
  std::size_t bytes = 1;
  EXPECT_EQ(run(p, temp, bytes, range, 100, nullptr, 0, nullptr, nullptr, 0, nullptr), CUDA_SUCCESS);
  EXPECT_TRUE(recorded<SearchLaunch>().empty());
}

TEST(BinarySearchHotPath, BadCallsLaunchNothing) {
  const LaunchContext ctx = context(&record_search_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  recorded<SearchLaunch>().clear();
  std::size_t bytes = 1;
  const auto run32 = d::select_dispatch(ScalarType::int32);
  EXPECT_EQ(run32(p, dev, bytes, dev, std::uint64_t{INT32_MAX} + 1, dev, 10, dev, nullptr, 0, nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "a range the out type cannot index";
  EXPECT_EQ(run32(p, dev, bytes, dev, 10, dev, std::uint64_t{INT64_MAX} + 1, dev, nullptr, 0, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(run32(p, dev, bytes, nullptr, 10, dev, 10, dev, nullptr, 0, nullptr), CUDA_ERROR_INVALID_VALUE)
      << "null range";
  EXPECT_EQ(run32(p, dev, bytes, dev, 10, nullptr, 10, dev, nullptr, 0, nullptr), CUDA_ERROR_INVALID_VALUE)
      << "null values";
  EXPECT_EQ(run32(p, dev, bytes, dev, 10, dev, 10, nullptr, nullptr, 0, nullptr), CUDA_ERROR_INVALID_VALUE)
      << "null out";
  std::size_t none = 0;
  EXPECT_EQ(run32(p, dev, none, dev, 10, dev, 10, dev, nullptr, 0, nullptr), CUDA_ERROR_INVALID_VALUE)
      << "small temp storage";
  EXPECT_TRUE(recorded<SearchLaunch>().empty());
  // An empty range with a null pointer is a valid search (every index 0).
  EXPECT_EQ(run32(p, dev, bytes, nullptr, 0, dev, 10, dev, nullptr, 0, nullptr), CUDA_SUCCESS);
  const LaunchContext failing = context(&failing_launch);
  const d::DispatchParams f = params(&failing);
  EXPECT_EQ(run32(f, dev, bytes, dev, 10, dev, 10, dev, nullptr, 0, nullptr),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}


// A values or output iterator is its packed bytes, handed to the driver by address; an
// array is its pointer (CUB's kernel_arg). One entry per choice; no allocation.
TEST(BinarySearchHotPath, IteratorsArePassedAsTheirPackedBytes) {
  const LaunchContext ctx = context(&record_search_launch);
  const d::DispatchParams p = params(&ctx);
  void* range = device_address(0x7f0000000000);
  void* array = device_address(0x7f1000000000);
  void* temp = device_address(0x7f3000000000);
  alignas(16) unsigned char values[128] = {}, out[128] = {};
  const d::DispatchFn arrays = d::select_dispatch(ScalarType::int64);
  const d::DispatchFn both = d::select_dispatch(ScalarType::int64, true, true, true);
  const d::DispatchFn in_only = d::select_dispatch(ScalarType::int64, true, true, false);
  const d::DispatchFn out_only = d::select_dispatch(ScalarType::int64, true, false, true);
  EXPECT_TRUE(both != arrays && in_only != arrays && out_only != arrays && in_only != out_only);
  std::size_t bytes = 1;
  recorded<SearchLaunch>().clear();
  const auto [rc, allocations] = count_allocations(
      [&] { return both(p, temp, bytes, range, 1000, values, 1u << 20, out, nullptr, 0, nullptr); });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  ASSERT_EQ(recorded<SearchLaunch>().size(), 1u);
  EXPECT_EQ(recorded<SearchLaunch>()[0].values, values);
  EXPECT_EQ(recorded<SearchLaunch>()[0].out, out);
  EXPECT_EQ(recorded<SearchLaunch>()[0].range, range);
  recorded<SearchLaunch>().clear();
  ASSERT_EQ(in_only(p, temp, bytes, range, 1000, values, 1u << 20, array, nullptr, 0, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(recorded<SearchLaunch>().size(), 1u);
  EXPECT_EQ(recorded<SearchLaunch>()[0].values, values);
  EXPECT_EQ(*static_cast<void* const*>(recorded<SearchLaunch>()[0].out), array);
}

// A stateful comparator's state is copied into the search operator the kernel takes,
// after the range and its count (at 16); the bytes are read at the call (the driver copies
// them at the launch), so the caller's copy may change after. No allocation.
TEST(BinarySearchHotPath, AStatefulComparatorsStateFollowsTheRangeAndCount) {
  const LaunchContext ctx = context(&record_search_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(ScalarType::int64);
  const auto [range, values, out, temp] = SearchArrays{};
  alignas(16) std::uint64_t state[2] = {0x0123456789abcdefull, 7};
  std::size_t bytes = 1;
  recorded<SearchLaunch>().clear();
  const auto [rc, allocations] = count_allocations([&] {
    return run(p, temp, bytes, range, 1000, values, 1u << 20, out, nullptr, sizeof state, state);
  });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  ASSERT_EQ(recorded<SearchLaunch>().size(), 1u);
  const SearchLaunch& l = recorded<SearchLaunch>()[0];
  EXPECT_EQ(l.range, range);
  EXPECT_EQ(l.num_items, 1000u);
  EXPECT_EQ(l.state, state[0]);
  // More state than an operator holds is refused without a launch.
  recorded<SearchLaunch>().clear();
  EXPECT_EQ(run(p, temp, bytes, range, 1000, values, 1u << 20, out, nullptr, kMaxOpStateSize + 16,
                state),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<SearchLaunch>().empty());
}

// A range iterator's packed bytes lead the search operator the kernel takes, the count
// follows at kRangeBytes and a stateful comparator's state at kRangeBytes + 16 (the
// generated cccl_cache_op's layout). One entry of its own; no allocation.
TEST(BinarySearchHotPath, ARangeIteratorsBytesLeadTheSearchOperator) {
  const LaunchContext ctx = context(&record_range_search_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn over = d::select_dispatch(ScalarType::int64, true, false, false, true);
  ASSERT_NE(over, nullptr);
  EXPECT_NE(over, d::select_dispatch(ScalarType::int64));
  EXPECT_NE(over, d::select_dispatch(ScalarType::int64, true, true, true, true));
  const auto [unused, values, out, temp] = SearchArrays{};
  alignas(16) unsigned char range[d::kRangeBytes];
  for (std::size_t i = 0; i < sizeof range; ++i) range[i] = static_cast<unsigned char>(i * 7 + 1);
  const std::uint64_t state = 0x0123456789abcdefull;
  for (const std::uint32_t state_size : {0u, 8u}) {
    SCOPED_TRACE(state_size);
    range_ops().clear();
    recorded<SearchLaunch>().clear();
    std::size_t bytes = 1;
    const auto [rc, allocations] = count_allocations([&] {
      return over(p, temp, bytes, range, 1000, values, 1u << 20, out, nullptr, state_size,
                  state_size ? &state : nullptr);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0);
    ASSERT_EQ(range_ops().size(), 1u);
    const auto& op = range_ops()[0];
    EXPECT_EQ(std::memcmp(op.data(), range, sizeof range), 0);
    std::uint64_t count = 0, got_state = 0;
    std::memcpy(&count, op.data() + d::kRangeBytes, 8);
    std::memcpy(&got_state, op.data() + d::kRangeBytes + 16, 8);
    EXPECT_EQ(count, 1000u);
    EXPECT_EQ(got_state, state_size ? state : 0u);
  }
}
