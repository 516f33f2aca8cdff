// unique_by_key's host side without a GPU: spec validation and spec text; the
// closed-form temp-storage size against CCCL 3.5's own dispatch (its size path makes no
// driver call); and the hot path: a call allocates nothing and reaches the driver only
// through the cuLaunchKernelEx pointer fixed at bind (a recorder here; the kernels are
// stand-in handles and device pointers are never dereferenced by the host code).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "core/dispatch_abi.hpp"
#include "closed_form_support.hpp"
#include "hot_path_support.hpp"
#include "spec_cases.hpp"
#include "unique_by_key/dispatch.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::unique_by_key::detail;
using unique_by_key::Spec;

// A launch with the arguments CUB passes. Init kernel: tile state, tile count, count
// pointer. Sweep kernel: keys and values in and out, count pointer, tile state,
// operator, item count, tile count.
struct UniqueLaunch : Launch {
  std::uintptr_t selected = 0;
  int num_tiles = 0;
  std::uintptr_t keys_in = 0, values_in = 0, keys_out = 0, values_out = 0;
  std::uint64_t num_items = 0;
  const void* op_arg = nullptr;  // the sweep's operator argument pointer
  const void* args[4] = {};      // its keys' and values' argument pointers (1st-4th)
};

// The operator argument of a stateless operator (core/launch.hpp).
const void* const kNoState = cccl_cache::algos::detail::kNoOpState;

// For 8-byte offsets (the tile state is one pointer either way).
void decode_unique_launch(UniqueLaunch& l, bool init, void** params) {
  if (init) {
    std::memcpy(&l.num_tiles, params[1], sizeof(int));
    std::memcpy(&l.selected, params[2], sizeof(void*));
    return;
  }
  std::memcpy(&l.keys_in, params[0], sizeof(void*));
  std::memcpy(&l.values_in, params[1], sizeof(void*));
  std::memcpy(&l.keys_out, params[2], sizeof(void*));
  std::memcpy(&l.values_out, params[3], sizeof(void*));
  std::memcpy(&l.selected, params[4], sizeof(void*));
  std::memcpy(&l.num_items, params[7], sizeof(std::uint64_t));
  std::memcpy(&l.num_tiles, params[8], sizeof(int));
  l.op_arg = params[6];
  for (int k = 0; k < 4; ++k) l.args[k] = params[k];
}
constexpr auto record_unique_launch =
    &record_two_kernel_launch<UniqueLaunch, 3, 10, &decode_unique_launch>;

using LaunchContext = cccl_cache::algos::detail::LaunchContext;

// A tile of 128 threads x 8 items.
d::DispatchParams params(const LaunchContext* ctx) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy.threads = 128;
  p.policy.items = 8;
  return p;
}

}  // namespace

TEST(UniqueByKeySpec, ValidatesEveryField) {
  EXPECT_TRUE(Spec{}.validate());
  const auto eq = Operator::of(OpKind::equal_to);
  const auto custom = Operator::custom("same_bucket", "__device__ bool same_bucket(int a, int b) { return a / 8 == b / 8; }");
  using S = ScalarType;
  const SpecCase<Spec> cases[] = {
      {{S::float16, S::bfloat16, eq, S::uint32, S::int32}, true, ""},
      {{S::int8, S::float64, custom, S::uint64, S::uint64}, true, ""},
      {{S::none, S::int32, eq, S::uint64, S::uint64}, false, "keys"},
      {{static_cast<S>(99), S::int32, eq, S::uint64, S::uint64}, false, "keys"},
      {{S::int32, S::none, eq, S::uint64, S::uint64}, false, "values"},
      {{S::int32, S::int32, Operator::less(), S::uint64, S::uint64}, false, "op"},
      {{S::int32, S::int32, Operator::plus(), S::uint64, S::uint64}, false, "op"},
      {{S::int32, S::int32, Operator::custom("cccl_cache_x", "int x;"), S::uint64, S::uint64}, false, "op"},
      {{S::int32, S::int32, Operator::custom("f", " "), S::uint64, S::uint64}, false, "op"},
      {{S::int32, S::int32, eq, S::int64, S::uint64}, false, "offset"},
      {{S::int32, S::int32, eq, S::int32, S::uint64}, false, "offset"},
      {{S::int32, S::int32, eq, S::uint64, S::int16}, false, "selected"},
      {{S::int32, S::int32, eq, S::uint64, S::float32}, false, "selected"},
  };
  expect_validation<Spec>(cases);
}

TEST(UniqueByKeySpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("unique_by_key");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text({{"keys", "int64", {}},
                                {"values", "float32", {}},
                                {"offset", "uint32", {}},
                                {"selected", "int32", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec),
            "unique_by_key keys=int64 values=float32 op=equal_to offset=uint32 selected=int32");
  auto custom = entry->from_text(
      {{"keys", "int32", {}}, {"values", "int32", {}}, {"op", "near", "__device__ bool near(int a, int b);"}});
  ASSERT_TRUE(custom) << custom.error().describe();
  auto bad = entry->from_text({{"keys", "int32", {}}, {"values", "int32", {}}, {"op", "less", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("equal_to or custom"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(entry->from_text({{"keys", "int32", {}}}));    // values are required
  EXPECT_FALSE(entry->from_text({{"values", "int32", {}}}));  // keys are required
}

// Every offset, many counts: the closed form equals what CUB's dispatch answers; counts
// beyond the offset type (or CUB's int tile count) are refused by both. One dispatch
// serves every key and value type (it reads no item).
TEST(UniqueByKeyTempStorage, ClosedFormEqualsCubDispatch) {
  const LaunchContext ctx = two_kernel_context(nullptr);
  const d::DispatchParams p = params(&ctx);
  int checked = 0;
  for (ScalarType offset : {ScalarType::uint32, ScalarType::uint64}) {
    const d::DispatchFn fn = d::select_dispatch(offset);
    const d::DispatchFn cub = d::select_dispatch(offset, /*closed_form=*/false);
    ASSERT_NE(fn, nullptr);
    ASSERT_NE(cub, nullptr);
    const std::uint64_t max = offset == ScalarType::uint32 ? UINT32_MAX : 1024ull * INT32_MAX;
    checked += expect_closed_form_equals_cub(
        {0, 1, 2, 1023, 1024, 1025, (1ull << 20) + 3, 1ull << 26, 1ull << 31, std::uint64_t{UINT32_MAX},
         1ull << 32, 1ull << 40, 1024ull * INT32_MAX, 1024ull * INT32_MAX + 1},
        max, [&](bool closed_form, std::uint64_t n, std::size_t& bytes) {
          return (closed_form ? fn : cub)(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n,
                                          nullptr, nullptr);
        });
  }
  EXPECT_GT(checked, 2 * 9);
}

TEST(UniqueByKeyTempStorage, UnsupportedOffsetsHaveNoDispatch) {
  EXPECT_EQ(d::select_dispatch(ScalarType::int64), nullptr);
  EXPECT_EQ(d::select_dispatch(ScalarType::float32), nullptr);
}

// The init kernel over every tile (128 threads a block, one block at least), then one
// sweep block per tile (none for zero items); no allocation, no dependent launch, the
// caller's pointers passed as they are.
TEST(UniqueByKeyHotPath, LaunchesOnlyTheBoundKernelsAndAllocatesNothing) {
  const LaunchContext ctx = two_kernel_context(record_unique_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(ScalarType::uint64);
  // A stateful equality's state: the sweep's operator argument is its address (OpArg).
  const std::uint64_t state = 7;
  const std::uintptr_t keys_in = 0x7f0000000000, values_in = 0x7f1000000000,
                       keys_out = 0x7f2000000000, values_out = 0x7f3000000000,
                       selected = 0x7f4000000000, temp = 0x7f5000000000;
  const auto ptr = [](std::uintptr_t a) { return reinterpret_cast<void*>(a); };
  struct Case {
    std::uint64_t n;
    int tiles;
    unsigned init_grid;
  };
  for (const Case c : {Case{0, 0, 1}, Case{1, 1, 1}, Case{1024, 1, 1}, Case{1025, 2, 1},
                       Case{(1ull << 20) + 3, 1025, 9}, Case{1ull << 26, 65536, 512}}) {
    SCOPED_TRACE(std::to_string(c.n) + " items");
    recorded<UniqueLaunch>().clear();
    std::size_t bytes = 0;
    ASSERT_EQ(
        run(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, c.n, nullptr, nullptr),
        CUDA_SUCCESS);
    const auto [rc, allocations] = count_allocations([&] {
      return run(p, ptr(temp), bytes, ptr(keys_in), ptr(values_in), ptr(keys_out), ptr(values_out),
                 ptr(selected), c.n, nullptr, &state);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the unique_by_key path allocated";
    const auto& seen = recorded<UniqueLaunch>();
    ASSERT_EQ(seen.size(), c.n == 0 ? 1u : 2u);
    EXPECT_EQ(seen[0].fn, kInitKernel);
    EXPECT_EQ(seen[0].block_x, 128u);
    EXPECT_EQ(seen[0].grid_x, c.init_grid);
    EXPECT_EQ(seen[0].num_tiles, std::max(c.tiles, 1));
    EXPECT_EQ(seen[0].selected, selected);
    for (const auto& l : seen) EXPECT_EQ(l.num_attrs, 0u) << "CUB launches without dependent launch";
    if (c.n == 0) continue;
    EXPECT_EQ(seen[1].fn, kSweepKernel);
    EXPECT_EQ(seen[1].block_x, 128u);
    EXPECT_EQ(seen[1].grid_x, static_cast<unsigned>(c.tiles));
    EXPECT_EQ(seen[1].num_tiles, c.tiles);
    EXPECT_EQ(seen[1].num_items, c.n);
    EXPECT_EQ(seen[1].keys_in, keys_in);
    EXPECT_EQ(seen[1].values_in, values_in);
    EXPECT_EQ(seen[1].keys_out, keys_out);
    EXPECT_EQ(seen[1].values_out, values_out);
    EXPECT_EQ(seen[1].selected, selected);
    EXPECT_EQ(seen[1].op_arg, &state) << "the equality operator's argument";
  }
}

TEST(UniqueByKeyHotPath, BadCountsAndSmallTempStorageLaunchNothing) {
  const LaunchContext ctx = two_kernel_context(record_unique_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  recorded<UniqueLaunch>().clear();
  const d::DispatchFn narrow = d::select_dispatch(ScalarType::uint32);
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(narrow(p, dev, bytes, dev, dev, dev, dev, dev, 1ull << 32, nullptr, kNoState),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(narrow(p, nullptr, bytes, dev, dev, dev, dev, dev, 1ull << 32, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  std::size_t small = 16;
  EXPECT_EQ(narrow(p, dev, small, dev, dev, dev, dev, dev, 1000, nullptr, kNoState),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<UniqueLaunch>().empty());
}

TEST(UniqueByKeyHotPath, ALaunchErrorIsReturnedAndStopsTheCall) {
  LaunchContext ctx = two_kernel_context(&failing_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(ScalarType::uint64);
  void* dev = device_address(0x7f0000000000);
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(run(p, dev, bytes, dev, dev, dev, dev, dev, 1000, nullptr, kNoState),
            CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

// Where the spec has an iterator, each of the keys and values read and written is its
// packed bytes, handed to the driver by address; the size is the arrays'. No allocation.
TEST(UniqueByKeyHotPath, IteratorsArePassedAsTheirPackedBytes) {
  const LaunchContext ctx = two_kernel_context(record_unique_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn arrays = d::select_dispatch(ScalarType::uint64);
  const d::DispatchFn run = d::select_dispatch(ScalarType::uint64, true, /*iterators=*/true);
  ASSERT_NE(run, nullptr);
  EXPECT_NE(run, arrays);
  alignas(16) unsigned char bytes4[4][128] = {};
  void* temp = device_address(0x7f5000000000);
  void* selected = device_address(0x7f4000000000);
  const std::uint64_t n = (1ull << 20) + 3;
  std::size_t bytes = 0, array_bytes = 0;
  ASSERT_EQ(run(p, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n, nullptr, nullptr),
            CUDA_SUCCESS);
  ASSERT_EQ(arrays(p, nullptr, array_bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n, nullptr,
                   nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(bytes, array_bytes);
  recorded<UniqueLaunch>().clear();
  const auto [rc, allocations] = count_allocations([&] {
    return run(p, temp, bytes, bytes4[0], bytes4[1], bytes4[2], bytes4[3], selected, n, nullptr,
               kNoState);
  });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  ASSERT_EQ(recorded<UniqueLaunch>().size(), 2u);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(recorded<UniqueLaunch>()[1].args[k], bytes4[k]) << k;
  EXPECT_EQ(recorded<UniqueLaunch>()[1].selected, reinterpret_cast<std::uintptr_t>(selected));
  EXPECT_EQ(recorded<UniqueLaunch>()[1].num_items, n);
}
