// scan_by_key's host side without a GPU: spec validation and spec text; the closed-form
// temp-storage size against CCCL 3.5's own dispatch (its size path makes no driver call;
// its runtime questions are answered from the launch context); and the hot path: a call
// allocates nothing and reaches the driver only through the cuLaunchKernelEx pointer
// fixed at bind (a recorder here; the kernels are stand-in handles and device pointers
// are never dereferenced by the host code).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "core/temp_storage.hpp"
#include "closed_form_support.hpp"
#include "hot_path_support.hpp"
#include "scan_by_key/codegen.hpp"
#include "scan_by_key/dispatch.hpp"
#include "spec_cases.hpp"
#include "tile_state_cub_reference.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::scan_by_key::detail;
using scan_by_key::Spec;

// A launch with the arguments CUB passes. Init kernel: tile state, keys in, previous
// keys, items per tile, tile count. Scan kernel: keys in, previous keys, values in and
// out, tile state, start tile, equality, operator, initial value, item count.
struct ByKeyLaunch : Launch {
  std::uintptr_t keys_in = 0, keys_prev = 0, values_in = 0, values_out = 0;
  int num_tiles = 0, start_tile = 0;
  std::uint64_t items_per_tile = 0, num_items = 0;
  std::uint32_t init = 0;
  std::uintptr_t tile[3] = {};  // the tile state argument's pointers (multi-word: all three)
};

// For 4-byte keys and values and 8-byte offsets, exclusive (init read as 4 bytes).
void decode_by_key_launch(ByKeyLaunch& l, bool init, void** params) {
  if (init) {
    std::memcpy(l.tile, params[0], sizeof l.tile);
    std::memcpy(&l.keys_in, params[1], sizeof(void*));
    std::memcpy(&l.keys_prev, params[2], sizeof(void*));
    std::memcpy(&l.items_per_tile, params[3], sizeof(std::uint64_t));
    std::memcpy(&l.num_tiles, params[4], sizeof(int));
    return;
  }
  std::memcpy(&l.keys_in, params[0], sizeof(void*));
  std::memcpy(&l.keys_prev, params[1], sizeof(void*));
  std::memcpy(&l.values_in, params[2], sizeof(void*));
  std::memcpy(&l.values_out, params[3], sizeof(void*));
  std::memcpy(l.tile, params[4], sizeof l.tile);
  std::memcpy(&l.start_tile, params[5], sizeof(int));
  std::memcpy(&l.init, params[8], sizeof(std::uint32_t));
  std::memcpy(&l.num_items, params[9], sizeof(std::uint64_t));
}
constexpr auto record_by_key_launch =
    &record_two_kernel_launch<ByKeyLaunch, 5, 10, &decode_by_key_launch>;

using LaunchContext = cccl_cache::algos::detail::LaunchContext;

// A tile of 128 threads x 8 items, an accumulator of `accum_size` bytes aligned to
// `accum_align`.
d::DispatchParams params(const LaunchContext* ctx, std::uint32_t accum_size = 4,
                         std::uint32_t accum_align = 4) {
  d::DispatchParams p;
  p.launch = ctx;
  p.policy.block_threads = 128;
  p.policy.items_per_thread = 8;
  p.policy.accum_size = accum_size;
  p.policy.accum_align = accum_align;
  p.tile = d::tile_shape(accum_size, accum_align).value();
  return p;
}

}  // namespace

TEST(ScanByKeySpec, ValidatesEveryField) {
  EXPECT_TRUE(Spec{}.validate());
  const auto eq = Operator::of(OpKind::equal_to);
  const auto plus = Operator::plus();
  const auto bucket = Operator::custom(
      "same_bucket", "__device__ bool same_bucket(int a, int b) { return a / 8 == b / 8; }");
  const auto mx = Operator::custom("mx", "__device__ int mx(int a, int b) { return a > b ? a : b; }");
  const auto cell = ElementType::structure("cell", "struct cell { int row, col; };", 8, 4);
  const auto vi = ElementType::structure("vi", "struct vi { float v; int i; };", 8, 4);
  const auto same_row = Operator::custom(
      "same_row", "__device__ bool same_row(cell a, cell b) { return a.row == b.row; }");
  const auto argmax = Operator::custom(
      "argmax", "__device__ vi argmax(vi a, vi b) { return b.v > a.v ? b : a; }");
  using S = ScalarType;
  const SpecCase<Spec> cases[] = {
      {{S::float16, S::bfloat16, eq, plus, false, S::uint32}, true, ""},
      {{S::int8, S::float64, bucket, Operator::of(OpKind::maximum), true, S::uint64}, true, ""},
      {{S::int32, S::int32, bucket, mx, true, S::uint64}, true, ""},
      {{S::int32, S::int32, bucket, Operator::custom("same_bucket", "int same_bucket(int, int);"),
        false, S::uint64},
       false, "equality"},
      {{S::none, S::int32, eq, plus, false, S::uint64}, false, "keys"},
      {{static_cast<S>(99), S::int32, eq, plus, false, S::uint64}, false, "keys"},
      {{S::int32, S::none, eq, plus, false, S::uint64}, false, "values"},
      {{S::int32, S::int32, Operator::less(), plus, false, S::uint64}, false, "equality"},
      {{S::int32, S::int32, plus, plus, false, S::uint64}, false, "equality"},
      {{S::int32, S::int32, Operator::custom("f", " "), plus, false, S::uint64}, false, "equality"},
      {{S::int32, S::int32, eq, Operator::of(OpKind::minus), false, S::uint64}, false, "op"},
      {{S::float32, S::float32, eq, Operator::of(OpKind::bit_xor), false, S::uint64}, false, "op"},
      {{S::int32, S::int32, eq, plus, false, S::int64}, false, "offset"},
      {{S::int32, S::int32, eq, plus, false, S::int32}, false, "offset"},
      // Struct keys with a custom equality, struct values with a custom operator, of the
      // host's stand-in sizes.
      {{cell, S::float32, same_row, plus, false, S::uint64}, true, ""},
      {{S::int32, vi, eq, argmax, true, S::uint32}, true, ""},
      {{cell, vi, same_row, argmax, false, S::uint64}, true, ""},
      {{cell, S::float32, eq, plus, false, S::uint64}, false, "equality"},
      {{S::int32, vi, eq, Operator::of(OpKind::maximum), false, S::uint64}, false, "op"},
  };
  expect_validation<Spec>(cases);
}

// The host sizes the saved keys and the accumulator's tile state by stand-ins: a struct
// of another size is refused as unsupported, naming the sizes taken.
TEST(ScanByKeySpec, StructsOfOtherSizesAreUnsupported) {
  const auto odd = ElementType::structure("odd", "struct odd { int a, b, c, d, e; };", 20, 4);
  const auto odd_op = Operator::custom("odd_op", "__device__ odd odd_op(odd a, odd) { return a; }");
  const auto odd_eq = Operator::custom("odd_eq", "__device__ bool odd_eq(odd, odd) { return true; }");
  Spec values;
  values.value_type = odd;
  values.op = odd_op;
  Spec keys;
  keys.key_type = odd;
  keys.equality = odd_eq;
  for (const auto& [spec, field] : {std::pair{values, "values"}, std::pair{keys, "keys"}}) {
    const auto r = spec.validate();
    ASSERT_FALSE(r) << field;
    EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::unsupported);
    EXPECT_NE(r.error().message.find("field '" + std::string(field) + "'"), std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("1, 2, 4, 8, 12, 16, 24, 32 bytes"), std::string::npos)
        << r.error().message;
  }
}

TEST(ScanByKeySpec, SpecTextNamesTheFields) {
  const auto* entry = find_algorithm("scan_by_key");
  ASSERT_NE(entry, nullptr);
  auto spec = entry->from_text({{"keys", "int64", {}},
                                {"values", "float32", {}},
                                {"op", "maximum", {}},
                                {"exclusive", "true", {}},
                                {"offset", "uint32", {}}});
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec_text(*spec),
            "scan_by_key keys=int64 values=float32 equality=equal_to op=maximum exclusive=true "
            "offset=uint32");
  auto custom = entry->from_text({{"keys", "int32", {}},
                                  {"values", "int32", {}},
                                  {"equality", "near", "__device__ bool near(int a, int b);"}});
  ASSERT_TRUE(custom) << custom.error().describe();
  auto bad =
      entry->from_text({{"keys", "int32", {}}, {"values", "int32", {}}, {"equality", "less", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("equal_to or custom"), std::string::npos)
      << bad.error().message;
  EXPECT_FALSE(entry->from_text({{"keys", "int32", {}}}));    // values are required
  EXPECT_FALSE(entry->from_text({{"values", "int32", {}}}));  // keys are required
}

// Every spec's source names CUB's accumulator (__accumulator_t over the operator and
// the value type) and gives it to the selector, the tile state and the scan kernel; the
// host derives none (its size comes from the kernels' compile: test_scan_by_key_record).
TEST(ScanByKeyAccumulator, SourceNamesCubsAccumulator) {
  for (OpKind kind : {OpKind::plus, OpKind::bit_xor, OpKind::logical_and, OpKind::maximum}) {
    Spec spec;
    spec.value_type = ScalarType::int8;
    spec.op = Operator::of(kind);
    const auto gen = cccl_cache::algos::detail::BuildSteps<ScanByKey>::source(spec);
    EXPECT_NE(gen.source.find("using cccl_cache_accum_t = ::cuda::std::__accumulator_t<"
                              "cccl_cache_op, cccl_cache_value_t, cccl_cache_value_t>;"),
              std::string::npos);
    EXPECT_NE(gen.source.find("cccl_cache_key_t, cccl_cache_accum_t, cccl_cache_value_t"),
              std::string::npos);
    const std::string tile = "ReduceByKeyScanTileState<cccl_cache_accum_t, int>";
    EXPECT_NE(gen.kernels[0].find(tile), std::string::npos) << gen.kernels[0];
    EXPECT_NE(gen.kernels[1].find(tile), std::string::npos) << gen.kernels[1];
    EXPECT_NE(gen.kernels[1].find(", cccl_cache_accum_t>"), std::string::npos) << gen.kernels[1];
    EXPECT_NE(gen.policy_probe.find("sizeof(cccl_cache_accum_t)"), std::string::npos);
  }
}

// The accumulators a tile state has a shape for: every stand-in size with every
// alignment dividing it, up to 16.
std::vector<std::pair<std::uint32_t, std::uint32_t>> accumulators() {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (std::uint32_t size : {1u, 2u, 4u, 8u, 12u, 16u, 24u, 32u})
    for (std::uint32_t align : {1u, 2u, 4u, 8u, 16u})
      if (size % align == 0) out.emplace_back(size, align);
  return out;
}

// The shape tile_shape reads from CUB's own ReduceByKeyScanTileState, used as the
// dispatch uses it, asks what CUB's own type asks for every tile count: single-word up
// to 8 bytes, multi-word from 12, each payload a KeyValuePair<int, A> of A's alignment.
TEST(ScanByKeyTileState, ShapeAsksWhatCubsOwnTileStateAsks) {
  for (const auto [size, align] : accumulators()) {
    SCOPED_TRACE(std::to_string(size) + "/" + std::to_string(align));
    const auto shape = d::tile_shape(size, align);
    ASSERT_TRUE(shape);
    EXPECT_EQ(shape->single_word, size <= 8);
    EXPECT_EQ(shape->arg_bytes, shape->single_word ? 8u : 24u);
    if (!shape->single_word) {
      const std::uint32_t value_at = align > 4 ? align : 4;
      const std::uint32_t pair_align = align > 4 ? align : 4;
      EXPECT_EQ(shape->payload_bytes, (value_at + size + pair_align - 1) / pair_align * pair_align);
    }
    for (int tiles : {0, 1, 2, 1025, 65536, 1 << 20, INT32_MAX - 32}) {
      const auto cub = test_support::cub_by_key_tile_state_bytes(size, align, tiles);
      ASSERT_TRUE(cub);
      const std::uint64_t ours =
          shape->single_word
              ? (32ull + tiles) * shape->word_bytes
              : cccl_cache::algos::detail::tile_state_bytes(tiles, shape->word_bytes, shape->payload_bytes);
      EXPECT_EQ(ours, *cub) << tiles << " tiles";
    }
  }
  EXPECT_FALSE(d::tile_shape(0, 1));
  EXPECT_FALSE(d::tile_shape(3, 1));
  EXPECT_FALSE(d::tile_shape(12, 8)) << "no 12-byte type is aligned to 8";
  EXPECT_FALSE(d::tile_shape(16, 32));
  EXPECT_FALSE(d::tile_shape(8, 3));
}

// Every (key size, accumulator shape, offset, inclusive/exclusive, arrays or iterators),
// many counts: the closed form equals what CUB's dispatch answers (for iterators, through
// the keys' stand-in value type); counts beyond the offset type (or CUB's int tile count)
// are refused by both.
TEST(ScanByKeyTempStorage, ClosedFormEqualsCubDispatch) {
  const LaunchContext ctx = two_kernel_context(nullptr);
  int checked = 0;
  for (std::size_t k : {1u, 2u, 4u, 8u, 12u, 16u, 24u, 32u})
    for (const auto [size, align] : accumulators()) {
      const d::DispatchParams p = params(&ctx, size, align);
      for (ScalarType offset : {ScalarType::uint32, ScalarType::uint64})
        for (bool exclusive : {false, true})
          for (bool iterators : {false, true}) {
            const d::DispatchFn fn = d::select_dispatch(k, offset, exclusive, true, iterators);
            const d::DispatchFn cub =
                d::select_dispatch(k, offset, exclusive, /*closed_form=*/false, iterators);
            ASSERT_NE(fn, nullptr);
            ASSERT_NE(cub, nullptr);
            SCOPED_TRACE(std::to_string(k) + "/" + std::to_string(size) + "/" + std::to_string(align));
            const std::uint64_t max =
                offset == ScalarType::uint32 ? UINT32_MAX : 1024ull * (INT32_MAX - 32);
            checked += expect_closed_form_equals_cub(
                {0, 1, 2, 1023, 1024, 1025, (1ull << 20) + 3, 1ull << 26, 1ull << 31,
                 std::uint64_t{UINT32_MAX}, 1ull << 32, 1ull << 40, 1024ull * (INT32_MAX - 32),
                 1024ull * (INT32_MAX - 32) + 1, 1024ull * INT32_MAX},
                max, [&](bool closed_form, std::uint64_t n, std::size_t& bytes) {
                  return (closed_form ? fn : cub)(p, nullptr, bytes, nullptr, nullptr, nullptr, n, nullptr,
                                                  nullptr);
                });
          }
    }
  EXPECT_GT(checked, 8 * 20 * 2 * 2 * 2 * 9);
}

TEST(ScanByKeyTempStorage, UnsupportedSizesHaveNoDispatch) {
  EXPECT_EQ(d::select_dispatch(3, ScalarType::uint64, false), nullptr);
  EXPECT_EQ(d::select_dispatch(0, ScalarType::uint64, false), nullptr);
  EXPECT_EQ(d::select_dispatch(48, ScalarType::uint64, true), nullptr);
  EXPECT_EQ(d::select_dispatch(4, ScalarType::int64, false), nullptr);
  EXPECT_EQ(d::select_dispatch(4, ScalarType::float32, false), nullptr);
}

// The init kernel over every tile (128 threads a block), then one scan block per tile;
// nothing for zero items; no allocation, no dependent launch, the caller's pointers and
// initial value passed as they are, the previous keys in the temp storage.
TEST(ScanByKeyHotPath, LaunchesOnlyTheBoundKernelsAndAllocatesNothing) {
  const LaunchContext ctx = two_kernel_context(record_by_key_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(4, ScalarType::uint64, /*exclusive=*/true);
  const std::uintptr_t keys_in = 0x7f0000000000, values_in = 0x7f1000000000,
                       values_out = 0x7f2000000000, temp = 0x7f5000000000;
  const auto ptr = [](std::uintptr_t a) { return reinterpret_cast<void*>(a); };
  const std::uint32_t init = 0xdeadbeef;
  struct Case {
    std::uint64_t n;
    int tiles;
    unsigned init_grid;
  };
  for (const Case c : {Case{0, 0, 0}, Case{1, 1, 1}, Case{1024, 1, 1}, Case{1025, 2, 1},
                       Case{(1ull << 20) + 3, 1025, 9}, Case{1ull << 26, 65536, 512}}) {
    SCOPED_TRACE(std::to_string(c.n) + " items");
    recorded<ByKeyLaunch>().clear();
    std::size_t bytes = 0;
    ASSERT_EQ(run(p, nullptr, bytes, nullptr, nullptr, nullptr, c.n, nullptr, nullptr), CUDA_SUCCESS);
    const auto [rc, allocations] = count_allocations([&] {
      return run(p, ptr(temp), bytes, ptr(keys_in), ptr(values_in), ptr(values_out), c.n, &init,
                 nullptr);
    });
    EXPECT_EQ(rc, CUDA_SUCCESS);
    EXPECT_EQ(allocations, 0) << "the scan_by_key path allocated";
    const auto& seen = recorded<ByKeyLaunch>();
    if (c.n == 0) {
      EXPECT_TRUE(seen.empty());
      continue;
    }
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].fn, kInitKernel);
    EXPECT_EQ(seen[0].block_x, 128u);
    EXPECT_EQ(seen[0].grid_x, c.init_grid);
    EXPECT_EQ(seen[0].num_tiles, c.tiles);
    EXPECT_EQ(seen[0].items_per_tile, 1024u);
    EXPECT_EQ(seen[0].keys_in, keys_in);
    EXPECT_GE(seen[0].keys_prev, temp);
    EXPECT_LT(seen[0].keys_prev, temp + bytes);
    for (const auto& l : seen) EXPECT_EQ(l.num_attrs, 0u) << "CUB launches without dependent launch";
    EXPECT_EQ(seen[1].fn, kSweepKernel);
    EXPECT_EQ(seen[1].block_x, 128u);
    EXPECT_EQ(seen[1].grid_x, static_cast<unsigned>(c.tiles));
    EXPECT_EQ(seen[1].start_tile, 0);
    EXPECT_EQ(seen[1].num_items, c.n);
    EXPECT_EQ(seen[1].keys_in, keys_in);
    EXPECT_EQ(seen[1].keys_prev, seen[0].keys_prev);
    EXPECT_EQ(seen[1].values_in, values_in);
    EXPECT_EQ(seen[1].values_out, values_out);
    EXPECT_EQ(seen[1].init, init);
  }
}

// The tile state reaches both kernels as the device's struct: one pointer to the
// transaction words (single-word), or the status words, partials and inclusives
// (multi-word), each in the temp storage before the saved keys; the initial value of a
// struct (24 bytes here) as its bytes.
TEST(ScanByKeyHotPath, TheTileStateIsTheDevicesStruct) {
  const LaunchContext ctx = two_kernel_context(record_by_key_launch);
  const std::uintptr_t temp = 0x7f5000000000;
  const std::uint64_t n = (1ull << 20) + 3;  // 1025 tiles
  for (const auto [size, align] : {std::pair{8u, 4u}, std::pair{24u, 8u}, std::pair{16u, 4u}}) {
    SCOPED_TRACE(std::to_string(size) + "/" + std::to_string(align));
    const d::DispatchParams p = params(&ctx, size, align);
    const d::DispatchFn run = d::select_dispatch(8, ScalarType::uint64, /*exclusive=*/true);
    std::size_t bytes = 0;
    ASSERT_EQ(run(p, nullptr, bytes, nullptr, nullptr, nullptr, n, nullptr, nullptr), CUDA_SUCCESS);
    alignas(8) unsigned char init[24] = {0xef, 0xbe, 0xad, 0xde};
    recorded<ByKeyLaunch>().clear();
    void* dev = device_address(0x7f0000000000);
    ASSERT_EQ(run(p, reinterpret_cast<void*>(temp), bytes, dev, dev, dev, n, init, nullptr), CUDA_SUCCESS);
    const auto& seen = recorded<ByKeyLaunch>();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].tile[0], temp) << "the tile state comes first in the temp storage";
    EXPECT_EQ(seen[1].tile[0], seen[0].tile[0]);
    EXPECT_EQ(seen[1].init, 0xdeadbeefu);
    const std::uint64_t states = 1025 + 32;
    if (size <= 8) {
      EXPECT_EQ(seen[0].keys_prev, temp + (states * 16 + 255) / 256 * 256);
      continue;
    }
    const std::uint64_t pair = p.tile.payload_bytes;
    EXPECT_EQ(pair, size == 24 ? 32u : 20u);
    const std::uintptr_t partials = temp + (states * 4 + 255) / 256 * 256;
    const std::uintptr_t inclusives = partials + (states * pair + 255) / 256 * 256;
    for (const auto& l : seen) {
      EXPECT_EQ(l.tile[1], partials);
      EXPECT_EQ(l.tile[2], inclusives);
    }
    EXPECT_EQ(seen[0].keys_prev, temp + cccl_cache::algos::detail::round256(
                                           cccl_cache::algos::detail::tile_state_bytes(1025, 4, pair)));
    EXPECT_LE(seen[0].keys_prev + 8 * 1026, temp + bytes);
  }
}

TEST(ScanByKeyHotPath, BadCallsLaunchNothing) {
  const LaunchContext ctx = two_kernel_context(record_by_key_launch);
  const d::DispatchParams p = params(&ctx);
  void* dev = device_address(0x7f0000000000);
  const std::uint32_t init = 0;
  recorded<ByKeyLaunch>().clear();
  const d::DispatchFn narrow = d::select_dispatch(4, ScalarType::uint32, true);
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(narrow(p, dev, bytes, dev, dev, dev, 1ull << 32, &init, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(narrow(p, nullptr, bytes, dev, dev, dev, 1ull << 32, &init, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(narrow(p, dev, bytes, dev, dev, dev, 1000, nullptr, nullptr), CUDA_ERROR_INVALID_VALUE)
      << "an exclusive scan needs its initial value";
  std::size_t small = 16;
  EXPECT_EQ(narrow(p, dev, small, dev, dev, dev, 1000, &init, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(recorded<ByKeyLaunch>().empty());
}

TEST(ScanByKeyHotPath, ALaunchErrorIsReturnedAndStopsTheCall) {
  LaunchContext ctx = two_kernel_context(&failing_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn run = d::select_dispatch(8, ScalarType::uint64, false);
  void* dev = device_address(0x7f0000000000);
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(run(p, dev, bytes, dev, dev, dev, 1000, nullptr, nullptr), CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

// Where the spec has an iterator, the keys and values read and the values written are
// each their packed bytes, handed to the driver by address (the kernels read the bytes:
// here each starts with a marker); the size is the arrays'. No allocation.
TEST(ScanByKeyHotPath, IteratorsArePassedAsTheirPackedBytes) {
  const LaunchContext ctx = two_kernel_context(record_by_key_launch);
  const d::DispatchParams p = params(&ctx);
  const d::DispatchFn arrays = d::select_dispatch(4, ScalarType::uint64, true);
  const d::DispatchFn run =
      d::select_dispatch(4, ScalarType::uint64, true, true, /*iterators=*/true);
  ASSERT_NE(run, nullptr);
  EXPECT_NE(run, arrays);
  alignas(16) unsigned char packed[3][128] = {};
  const std::uintptr_t marker[3] = {0x7f0000000100, 0x7f1000000200, 0x7f2000000300};
  for (int k = 0; k < 3; ++k) std::memcpy(packed[k], &marker[k], sizeof(marker[k]));
  void* temp = device_address(0x7f5000000000);
  const std::uint32_t init = 0xdeadbeef;
  const std::uint64_t n = (1ull << 20) + 3;
  std::size_t bytes = 0, array_bytes = 0;
  ASSERT_EQ(run(p, nullptr, bytes, nullptr, nullptr, nullptr, n, nullptr, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(arrays(p, nullptr, array_bytes, nullptr, nullptr, nullptr, n, nullptr, nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(bytes, array_bytes);
  recorded<ByKeyLaunch>().clear();
  const auto [rc, allocations] = count_allocations(
      [&] { return run(p, temp, bytes, packed[0], packed[1], packed[2], n, &init, nullptr); });
  EXPECT_EQ(rc, CUDA_SUCCESS);
  EXPECT_EQ(allocations, 0);
  const auto& seen = recorded<ByKeyLaunch>();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].keys_in, marker[0]) << "the init kernel reads each tile's last key";
  EXPECT_EQ(seen[1].keys_in, marker[0]);
  EXPECT_EQ(seen[1].values_in, marker[1]);
  EXPECT_EQ(seen[1].values_out, marker[2]);
  EXPECT_EQ(seen[1].init, init);
  EXPECT_EQ(seen[1].num_items, n);
}
