// for_each's host side without a GPU: its spec rules, the layout of the kernel's operator
// argument (DeviceFor's wrapper {items, op}), and the hot path: a call launches only the
// bound kernel with CUB's grid (ceil(n / tile) blocks of the policy's threads), its
// arguments (the count in the spec's offset type, the wrapper's bytes) packed on the
// stack, and allocates nothing. Its own binary: hot_path_support.hpp replaces operator new.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/for_each/spec.hpp"
#include "for_each/codegen.hpp"
#include "for_each/dispatch.hpp"
#include "hot_path_support.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using for_each::Spec;
namespace d = for_each::detail;

namespace {

Operator twice() { return Operator::custom("twice", "__device__ void twice(float& x) { x *= 2; }"); }
Operator stateful(std::uint32_t size, std::uint32_t align) {
  return Operator::custom("f", "__device__ void f(void* s, float x) {}", size, align);
}
Spec spec(Operator op = twice(), Iterator input = {}) {
  Spec s;
  s.op = std::move(op);
  s.input = std::move(input);
  return s;
}

TEST(ForEachSpec, ValidSpecsAndTheirText) {
  EXPECT_TRUE(spec().validate());
  EXPECT_EQ(summary(spec()), "for_each type=float32 op=twice offset=int64");
  EXPECT_TRUE(spec(stateful(8, 8)).validate());
  EXPECT_TRUE(spec(stateful(8, 8), Iterator::counting(ScalarType::int32)).validate());
  Spec s = spec();
  for (ScalarType t : {ScalarType::int32, ScalarType::uint32, ScalarType::uint64}) {
    s.offset_type = t;
    EXPECT_TRUE(s.validate()) << name(t);
  }
}

TEST(ForEachSpec, RefusalsNameTheField) {
  auto refused = [](const Spec& s, std::string_view part) {
    auto r = s.validate();
    ASSERT_FALSE(r) << summary(s);
    EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
  };
  refused(Spec{}, "field 'op': must be custom");
  refused(spec(Operator::plus()), "field 'op': must be custom");
  refused(spec(Operator::custom("1f", "__device__ void f(float&) {}")), "field 'op'");
  refused(spec(stateful(6, 4)), "field 'op'");
  Spec offset = spec();
  offset.offset_type = ScalarType::float32;
  refused(offset, "field 'offset'");
  Spec type = spec();
  type.type = ScalarType::none;
  refused(type, "field 'type'");
  // Struct items come from an array or a zip of their fields, nothing else.
  Spec s = spec(Operator::custom("g", "__device__ void g(pair& p) {}"), Iterator::counting(ScalarType::int32));
  s.type = ElementType::structure("pair", "struct pair { int a; float b; };", 8, 4);
  refused(s, "field 'input'");
}

TEST(ForEachSpec, OperatorStateAndInputChangeTheKey) {
  const auto base = cache_key(spec(), 90);
  EXPECT_NE(cache_key(spec(stateful(8, 8)), 90), base);
  EXPECT_NE(cache_key(spec(stateful(8, 8)), 90), cache_key(spec(stateful(16, 8)), 90));
  EXPECT_NE(cache_key(spec(twice(), Iterator::counting(ScalarType::float32)), 90), base);
  EXPECT_NE(cache_key(spec(Operator::custom("twice", "__device__ void twice(float& x) { x *= 3; }")), 90),
            base);
}

// {items, op}, each at its natural alignment: an array is a pointer, an iterator its packed
// struct, a stateless operator one byte, a stateful one its state's layout.
TEST(ForEachLayout, TheWrapperIsItemsThenOperator) {
  auto layout = [](const Spec& s) {
    const auto l = d::wrapper_layout(s);
    return std::vector<std::size_t>{l.items.size, l.op.size, l.op.align, l.op_offset, l.extent.size,
                                    l.extent.align};
  };
  using V = std::vector<std::size_t>;
  EXPECT_EQ(layout(spec()), (V{8, 1, 1, 8, 16, 8}));
  EXPECT_EQ(layout(spec(stateful(24, 8))), (V{8, 24, 8, 8, 32, 8}));
  EXPECT_EQ(layout(spec(stateful(16, 16))), (V{8, 16, 16, 16, 32, 16}));
  EXPECT_EQ(layout(spec(stateful(4, 4), Iterator::counting(ScalarType::int32))), (V{4, 4, 4, 4, 8, 4}));
  // A shuffle's 56 bytes padded to the state's 16-byte alignment: within the largest wrapper.
  const V largest = layout(spec(stateful(kMaxOpStateSize, 16), Iterator::shuffle(ScalarType::int64)));
  EXPECT_EQ(largest, (V{56, kMaxOpStateSize, 16, 64, 64 + kMaxOpStateSize, 16}));
  EXPECT_LE(largest[4], d::kMaxWrapperBytes);
}

using namespace test_support;
const CUfunction kKernel = reinterpret_cast<CUfunction>(0x5001);

// What the recorder keeps of a launch's two arguments.
struct ArgLaunch : Launch {
  std::uint64_t count = 0;
  unsigned char wrapper[64] = {};
};
int g_count_bytes = 8;  // the offset type's size in the running case
CUresult record_args(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr || params[0] == nullptr || params[1] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  ArgLaunch r{launch_of(config, fn)};
  std::memcpy(&r.count, params[0], g_count_bytes);
  std::memcpy(r.wrapper, params[1], sizeof r.wrapper);
  recorded<ArgLaunch>().push_back(r);
  return CUDA_SUCCESS;
}

const algos::detail::LaunchContext kContext = [] {
  auto c = h200_context(&record_args);
  c.max_grid_dim_x = INT_MAX;
  c.num_kernels = 1;
  c.kernels[0] = {kKernel, 256, 8, 0};
  return c;
}();

// CUB 3.5's ForPolicy (256 threads, 2 items) and a wrapper of {float*, 8-byte state}.
d::DispatchParams params(const algos::detail::LaunchContext* ctx = &kContext) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy = {256, 2};
  p.items_size = 8;
  p.op_offset = 8;
  p.op_size = 8;
  return p;
}

TEST(ForEachHotPath, OneLaunchOfCubsGridWithThePackedWrapperAndNoAllocation) {
  const d::DispatchParams p = params();
  void* items = device_address(0x7f0000000000);
  const std::uint64_t state = 0x1122334455667788ull;
  for (ScalarType offset : {ScalarType::int64, ScalarType::uint32}) {
    g_count_bytes = offset == ScalarType::int64 ? 8 : 4;
    const d::DispatchFn run = d::dispatch_for(offset);
    ASSERT_NE(run, nullptr);
    for (const auto& [n, grid] : std::vector<std::pair<std::uint64_t, unsigned>>{
             {1, 1}, {512, 1}, {513, 2}, {(1u << 20) + 3, 2049}, {1u << 28, 1u << 19}}) {
      recorded<ArgLaunch>().clear();
      const auto [rc, allocations] = count_allocations([&] { return run(p, &items, n, nullptr, &state); });
      EXPECT_EQ(rc, CUDA_SUCCESS);
      EXPECT_EQ(allocations, 0) << "the call allocated";
      ASSERT_EQ(recorded<ArgLaunch>().size(), 1u);
      const ArgLaunch& l = recorded<ArgLaunch>()[0];
      EXPECT_EQ(l.fn, kKernel);
      EXPECT_EQ(l.grid_x, grid) << n;
      EXPECT_EQ(l.block_x, 256u);
      EXPECT_EQ(l.shared, 0u);
      EXPECT_EQ(l.num_attrs, 0u) << "DeviceFor launches without programmatic dependent launch";
      EXPECT_EQ(l.count, n);
      EXPECT_EQ(std::memcmp(l.wrapper, &items, 8), 0);
      EXPECT_EQ(std::memcmp(l.wrapper + 8, &state, 8), 0);
    }
  }
  EXPECT_EQ(d::dispatch_for(ScalarType::float32), nullptr);
}

TEST(ForEachHotPath, NothingForNoItemsAndRefusalsWithoutALaunch) {
  void* items = device_address(0x7f0000000000);
  const std::uint64_t state = 0;
  const d::DispatchParams p = params();
  recorded<ArgLaunch>().clear();
  EXPECT_EQ(d::dispatch_for(ScalarType::int64)(p, &items, 0, nullptr, &state), CUDA_SUCCESS);
  // More items than the offset type holds.
  EXPECT_EQ(d::dispatch_for(ScalarType::int32)(p, &items, std::uint64_t{INT_MAX} + 1, nullptr, &state),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(d::dispatch_for(ScalarType::uint32)(p, &items, std::uint64_t{UINT_MAX} + 1, nullptr, &state),
            CUDA_ERROR_INVALID_VALUE);
  // A grid over the device's x limit.
  auto small = kContext;
  small.max_grid_dim_x = 1000;
  EXPECT_EQ(d::dispatch_for(ScalarType::int64)(params(&small), &items, 512 * 1000 + 1, nullptr, &state),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(d::dispatch_for(ScalarType::int64)(params(&small), &items, 512 * 1000, nullptr, &state),
            CUDA_SUCCESS);
  EXPECT_EQ(recorded<ArgLaunch>().size(), 1u);
  // No launch entry point (a bind's dry run), a failing launch.
  auto none = kContext;
  none.launch = nullptr;
  EXPECT_EQ(d::dispatch_for(ScalarType::int64)(params(&none), &items, 10, nullptr, &state),
            CUDA_ERROR_NOT_INITIALIZED);
  auto failing = kContext;
  failing.launch = &failing_launch;
  EXPECT_EQ(d::dispatch_for(ScalarType::int64)(params(&failing), &items, 10, nullptr, &state),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

}  // namespace
