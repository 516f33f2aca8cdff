// Inclusive and exclusive scan, CPU side: spec rules and spec text, builds for sm_80,
// sm_90 and sm_100 (the kernels CUB's dispatch launches, the policy the device compile
// chose, look-back or look-ahead), and the temp-storage answer of CUB's own dispatch
// through the bound-kernel glue, with no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "elf.hpp"
#include "scan/dispatch.hpp"
#include "scan_policies.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using scan::ExclusiveSpec;
using scan::InclusiveSpec;
using test_support::cached_build;

namespace {

InclusiveSpec inc(ScalarType t, Operator op = Operator::plus()) { return {t, std::move(op), ScalarType::uint64}; }
ExclusiveSpec exc(ScalarType t, Operator op = Operator::plus()) { return {t, std::move(op), ScalarType::uint64}; }

void expect_invalid(const Result<void>& r, const std::string& field) {
  ASSERT_FALSE(r) << field;
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(r.error().message.find("'" + field + "'"), std::string::npos) << r.error().message;
}

}  // namespace

TEST(ScanSpec, ValidationNamesTheField) {
  expect_invalid(InclusiveSpec{}.validate(), "type");  // type is required
  expect_invalid(inc(static_cast<ScalarType>(99)).validate(), "type");
  auto bad_offset = exc(ScalarType::int32);
  bad_offset.offset_type = ScalarType::int64;
  expect_invalid(bad_offset.validate(), "offset");
  expect_invalid(inc(ScalarType::float32, Operator::of(OpKind::bit_and)).validate(), "op");
  expect_invalid(inc(ScalarType::float16, Operator::of(OpKind::bit_xor)).validate(), "op");
  expect_invalid(inc(ScalarType::int32, Operator::of(OpKind::minus)).validate(), "op");
  expect_invalid(inc(ScalarType::int32, Operator::less()).validate(), "op");
  expect_invalid(inc(ScalarType::int32, Operator::of(OpKind::negate)).validate(), "op");
  expect_invalid(exc(ScalarType::int32, Operator::custom("cccl_cache_x", "int x;")).validate(), "op");
  expect_invalid(exc(ScalarType::int32, Operator::custom("f", "  ")).validate(), "op");
  for (ScalarType t : {ScalarType::int8, ScalarType::int16, ScalarType::int32, ScalarType::int64,
                       ScalarType::uint8, ScalarType::uint16, ScalarType::uint32, ScalarType::uint64,
                       ScalarType::float16, ScalarType::bfloat16, ScalarType::float32,
                       ScalarType::float64})
    for (OpKind k : {OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::maximum,
                     OpKind::logical_and, OpKind::logical_or, OpKind::bit_and, OpKind::bit_or,
                     OpKind::bit_xor}) {
      const bool bitwise = k == OpKind::bit_and || k == OpKind::bit_or || k == OpKind::bit_xor;
      EXPECT_EQ(static_cast<bool>(inc(t, Operator::of(k)).validate()), !bitwise || !is_float(t))
          << name(t) << " " << op_kind_name(k);
    }
  auto u32 = exc(ScalarType::float64, Operator::custom("f", "__device__ double f(double a, double b) { return a + b; }"));
  u32.offset_type = ScalarType::uint32;
  EXPECT_TRUE(u32.validate());
}

TEST(ScanSpec, SpecTextRoundTripsThroughTheRegistry) {
  EXPECT_EQ(spec_text(inc(ScalarType::float32)), "inclusive_scan type=float32 op=plus offset=uint64");
  EXPECT_EQ(spec_text(exc(ScalarType::int8, Operator::of(OpKind::bit_xor))),
            "exclusive_scan type=int8 op=bit_xor offset=uint64");
  for (std::string_view algo : {"inclusive_scan", "exclusive_scan"}) {
    const auto* entry = find_algorithm(algo);
    ASSERT_NE(entry, nullptr) << algo;
    // Only the type is required; op and offset take CUB's defaults.
    auto any = entry->from_text({{"type", "bfloat16", {}}});
    ASSERT_TRUE(any) << any.error().describe();
    EXPECT_EQ(spec_text(*any), std::string(algo) + " type=bfloat16 op=plus offset=uint64");
    auto custom = entry->from_text({{"type", "int32", {}},
                                    {"op", "imax", "__device__ int imax(int a, int b) { return a > b ? a : b; }"},
                                    {"offset", "uint32", {}}});
    ASSERT_TRUE(custom) << custom.error().describe();
    auto text = entry->to_text(custom->fields);
    ASSERT_TRUE(text);
    auto again = entry->from_text(*text);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *custom);
    auto bad = entry->from_text({{"type", "float32", {}}, {"op", "bit_or", {}}});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("op"), std::string::npos);
    EXPECT_FALSE(entry->from_text({{"op", "plus", {}}}));  // no type
  }
  // The two algorithms never share a key.
  EXPECT_NE(cache_key(inc(ScalarType::float32), 90), cache_key(exc(ScalarType::float32), 90));
}

// A seeded inclusive scan (init=true, CUB's InclusiveScanInit) is its own spec and key;
// the unseeded one encodes and writes as it did before the field existed.
TEST(ScanSpec, SeededInclusiveScanKeysApartAndLeavesTheUnseededAlone) {
  InclusiveSpec seeded = inc(ScalarType::int32);
  seeded.init = true;
  EXPECT_TRUE(seeded.validate());
  auto bad = exc(ScalarType::int32);
  bad.init = true;
  expect_invalid(bad.validate(), "init");
  EXPECT_EQ(spec_text(seeded), "inclusive_scan type=int32 op=plus offset=uint64 init=true");
  EXPECT_EQ(spec_text(inc(ScalarType::int32)), "inclusive_scan type=int32 op=plus offset=uint64");
  EXPECT_NE(cache_key(seeded, 90), cache_key(inc(ScalarType::int32), 90));
  // Unseeded: three fields (tags 1-3), the bytes of a spec without `init`.
  const auto plain = encode_fields(inc(ScalarType::int32));
  const auto with = encode_fields(seeded);
  ASSERT_EQ(with.size(), plain.size() + 6);
  EXPECT_TRUE(std::equal(plain.begin(), plain.end(), with.begin()));
  EXPECT_EQ(std::to_integer<int>(with[plain.size()]), 4);
  auto back = decode_fields<InclusiveSpec>(with);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, seeded);
  auto back_plain = decode_fields<InclusiveSpec>(plain);
  ASSERT_TRUE(back_plain);
  EXPECT_FALSE(back_plain->init);
  // A written false is not the writer's spelling: corrupt, not a second key for one spec.
  auto written_false = with;
  written_false.back() = std::byte{0};
  auto refused = decode_fields<InclusiveSpec>(written_false);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::corrupt);
  // An exclusive scan's encoding with init written fails its validation.
  auto exc_bytes = encode_fields(exc(ScalarType::int32));
  exc_bytes.insert(exc_bytes.end(), with.begin() + static_cast<std::ptrdiff_t>(plain.size()), with.end());
  EXPECT_FALSE(decode_fields<ExclusiveSpec>(exc_bytes));
  // Spec text: init=true and init=false (the unseeded spec) both parse.
  const auto* entry = find_algorithm("inclusive_scan");
  ASSERT_NE(entry, nullptr);
  auto text = entry->from_text({{"type", "int32", {}}, {"init", "true", {}}});
  ASSERT_TRUE(text) << text.error().describe();
  EXPECT_EQ(spec_text(*text), spec_text(seeded));
  auto off = entry->from_text({{"type", "int32", {}}, {"init", "false", {}}});
  ASSERT_TRUE(off);
  EXPECT_EQ(spec_text(*off), spec_text(inc(ScalarType::int32)));
  EXPECT_FALSE(find_algorithm("exclusive_scan")->from_text({{"type", "int32", {}}, {"init", "true", {}}}));
}

namespace {

template <class Spec>
const auto& built_ok(const Spec& spec, std::uint32_t cc) {
  const auto& r = cached_build(spec, cc);
  if (!r) ADD_FAILURE() << spec_text(spec) << " sm_" << cc << ": " << r.error().describe();
  return r;
}

template <class R>
void expect_kernels(const R& r, std::uint32_t cc) {
  auto elf = algos::detail::read_elf(r.record.cubin);
  ASSERT_TRUE(elf) << elf.error().message;
  EXPECT_EQ(elf->sm, cc);
  ASSERT_EQ(r.record.kernels.size(), 2u);
  EXPECT_NE(r.record.kernels[scan::init_kernel].find("DeviceScanInitKernel"), std::string::npos);
  EXPECT_NE(r.record.kernels[scan::scan_kernel].find("DeviceScanKernel"), std::string::npos);
  for (const auto& s : elf->symbols) EXPECT_EQ(s.find("cccl_cache_policy_probe"), std::string::npos) << s;
  // The stored form passes every check (launch bounds against the policy included).
  EXPECT_TRUE(deserialize_view<typename std::decay_t<decltype(r.spec)>::Algorithm>(serialize_record(r.record), cc));
}

}  // namespace

// CUB's sm_90 tuning for a primitive operator on 4-byte floats: 128 threads x 24 items
// with look-back (tuning_scan.cuh); a derived operator struct would have got the
// untuned 128 x 15: this is what operator_type is for.
TEST(ScanBuild, Sm90FloatPlusHasCubsTunedLookbackPolicy) {
  const auto& r = built_ok(inc(ScalarType::float32), 90);
  ASSERT_TRUE(r);
  expect_kernels(r->result, 90);
  const scan::Policy& p = r->result.policy;
  EXPECT_EQ(p.algorithm, 0u);
  EXPECT_EQ(p.block_threads, 128u);
  EXPECT_EQ(p.items_per_thread, 24u);
  const auto& e = built_ok(exc(ScalarType::float32), 90);
  ASSERT_TRUE(e);
  expect_kernels(e->result, 90);
  EXPECT_EQ(e->result.policy, p);  // same tuning; another scan kernel
  EXPECT_NE(e->result.record.kernels[scan::scan_kernel], r->result.record.kernels[scan::scan_kernel]);
  EXPECT_NE(e->result.record.kernels[scan::scan_kernel].find("InputValue"), std::string::npos);
}

// The seeded inclusive scan instantiates CUB's InclusiveScanInit kernel: an InputValue
// initial value and ForceInclusive (true, false: Lb1ELb0E), under the same tuning.
TEST(ScanBuild, SeededInclusiveScanHasCubsInclusiveScanInitKernel) {
  InclusiveSpec seeded = inc(ScalarType::int32);
  seeded.init = true;
  const auto& r = built_ok(seeded, 90);
  const auto& plain = built_ok(inc(ScalarType::int32), 90);
  ASSERT_TRUE(r && plain);
  expect_kernels(r->result, 90);
  const std::string& kernel = r->result.record.kernels[scan::scan_kernel];
  EXPECT_NE(kernel.find("InputValue"), std::string::npos) << kernel;
  EXPECT_NE(kernel.find("Lb1ELb0E"), std::string::npos) << kernel;
  EXPECT_EQ(plain->result.record.kernels[scan::scan_kernel].find("Lb1ELb0E"), std::string::npos);
  EXPECT_EQ(r->result.policy, plain->result.policy);
}

TEST(ScanBuild, Sm80Int64CustomAndFloat16Build) {
  const auto& r = built_ok(
      exc(ScalarType::int64, Operator::custom("lmax", "__device__ long long lmax(long long a, long long b) { return a > b ? a : b; }")), 80);
  ASSERT_TRUE(r);
  expect_kernels(r->result, 80);
  EXPECT_EQ(r->result.policy.algorithm, 0u);
  const auto& h = built_ok(inc(ScalarType::float16, Operator::of(OpKind::maximum)), 90);
  ASSERT_TRUE(h);
  expect_kernels(h->result, 90);
}

// From CC 10.0 CUB picks the warp-specialized look-ahead scan: block size from its warps
// ((2 x 4 + 3) x 32 for float), dynamic shared memory, tile 87 x 4 x 32.
TEST(ScanBuild, Sm100PicksLookahead) {
  const auto& r = built_ok(inc(ScalarType::float32), 100);
  ASSERT_TRUE(r);
  expect_kernels(r->result, 100);
  const scan::Policy& p = r->result.policy;
  EXPECT_EQ(p.algorithm, 1u);
  EXPECT_EQ(p.reduce_and_scan_warps, 4u);
  EXPECT_EQ(p.items_per_thread, 87u);
  EXPECT_EQ(p.lookahead_items_per_thread, 3u);
  EXPECT_EQ(p.block_threads, (2u * 4u + 3u) * 32u);
  EXPECT_EQ(static_cast<std::int32_t>(p.block_idx_stages), -1);
}

// CUB's accumulator, read from the kernels' compile: int for an int8 sum (its tile state
// holds int), int8 itself for an int8 maximum, bool under a logical operator.
TEST(ScanBuild, RecordsCubsAccumulator) {
  struct Case {
    ScalarType type;
    OpKind op;
    std::uint32_t accum;
  };
  for (const Case& c : {Case{ScalarType::int8, OpKind::plus, 4}, Case{ScalarType::int8, OpKind::maximum, 1},
                        Case{ScalarType::uint16, OpKind::bit_xor, 4}, Case{ScalarType::int64, OpKind::logical_or, 1}}) {
    SCOPED_TRACE(std::string(name(c.type)) + " " + std::string(op_kind_name(c.op)));
    const auto& i = built_ok(inc(c.type, Operator::of(c.op)), 90);
    const auto& e = built_ok(exc(c.type, Operator::of(c.op)), 90);
    ASSERT_TRUE(i && e);
    for (const scan::Policy& p : {i->result.policy, e->result.policy}) {
      EXPECT_EQ(p.accum_size, c.accum);
      EXPECT_EQ(p.accum_align, c.accum);
    }
    // The tile state is over the accumulator: ScanTileState<int, true> for int.
    if (c.accum == 4)
      EXPECT_NE(i->result.record.kernels[scan::scan_kernel].find("ScanTileStateIiLb1EE"), std::string::npos)
          << i->result.record.kernels[scan::scan_kernel];
  }
}

TEST(ScanBuild, ImplausiblePoliciesAreCorrupt) {
  const auto& r = built_ok(inc(ScalarType::float32), 90);
  ASSERT_TRUE(r);
  // algorithm, block_threads, items_per_thread, accum_size (2: no float32 accumulator),
  // accum_align.
  const std::pair<std::size_t, std::uint64_t> bad[] = {{0, 7}, {1, 4096}, {2, 0}, {7, 2}, {8, 1}};
  for (auto [field, value] : bad) {
    BuildRecord copy = r->result.record;
    copy.values[field] = value;
    auto v = deserialize_view<InclusiveScan>(serialize_record(copy), 90);
    ASSERT_FALSE(v) << field;
    EXPECT_EQ(v.error().code, ErrorCode::corrupt);
  }
  // Launch bounds disagreeing with the policy: another block size than compiled for.
  BuildRecord copy = r->result.record;
  copy.values[1] = 256;
  auto v = deserialize_view<InclusiveScan>(serialize_record(copy), 90);
  ASSERT_FALSE(v);
  EXPECT_NE(v.error().message.find("compiled for"), std::string::npos) << v.error().message;
}

// ---- temp storage: CUB's own dispatch through our glue, no GPU, no driver ----
namespace {

namespace d = scan::detail;

algos::detail::LaunchContext context(int ptx_version) {
  algos::detail::LaunchContext c;  // no launch: any launch would fail
  c.ptx_version = ptx_version;
  c.sm_count = 132;
  return c;
}
const auto kSm90 = context(900);
const auto kSm100 = context(1000);

d::DispatchParams lookback(int threads, int items) {
  d::DispatchParams p;
  p.launch = &kSm90;
  p.policy.block_threads = threads;
  p.policy.items_per_thread = items;
  return p;
}

d::DispatchParams lookahead() {  // CUB's float policy on sm_100
  d::DispatchParams p;
  p.launch = &kSm100;
  p.policy = test_support::scan_lookahead_policy();
  return p;
}

constexpr std::uint64_t r256(std::uint64_t x) { return (x + 255) / 256 * 256; }
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// CCCL 3.5, written out independently: look-back keeps one transaction word per tile
// plus a warp of padding (single-word tile state), aliased twice (tile state, then the
// dispatch); look-ahead keeps a power-of-two tile state per tile and a 4-byte counter.
// n_bytes: the accumulator's.
std::uint64_t expected_bytes(const d::DispatchParams& p, std::size_t n_bytes, std::uint64_t items) {
  if (p.policy.algorithm == 0) {
    const std::uint64_t txn = n_bytes >= 4 ? 2 * n_bytes : 4;
    const std::uint64_t tiles = ceil_div(items, std::uint64_t(p.policy.block_threads) * p.policy.items_per_thread);
    return r256(r256((tiles + 32) * txn) + 255) + 255;
  }
  if (items == 0) return 1;
  const std::uint64_t state = n_bytes == 8 ? 16 : 8;
  const std::uint64_t tiles = ceil_div(items, std::uint64_t(p.policy.items_per_thread) * p.policy.reduce_and_scan_warps * 32);
  return r256(tiles * state) + r256(4) + 255;
}

}  // namespace

// Every (element, accumulator) size pair CUB's accumulator takes over the element types:
// the accumulator (the tile state's value) sizes the temp storage.
TEST(ScanTempStorage, CubDispatchAnswersWithoutAGpu) {
  const std::pair<std::size_t, std::size_t> sizes[] = {{1, 1}, {1, 4}, {2, 2}, {2, 1}, {2, 4},
                                                       {4, 4}, {4, 1}, {8, 8}, {8, 1}};
  for (const d::DispatchParams& policy : {lookback(128, 24), lookback(192, 22), lookahead()})
    for (auto [t, n] : sizes)
      for (ScalarType offset : {ScalarType::uint32, ScalarType::uint64})
        for (bool exclusive : {false, true}) {
          d::DispatchParams p = policy;
          p.layout = d::state_layout(t, n).value();  // bind's
          const d::DispatchFn fn = d::select_dispatch(t, n, offset, exclusive);
          ASSERT_NE(fn, nullptr);
          for (std::uint64_t items : {0ull, 1ull, 2ull, 1023ull, 1025ull, 3072ull, 3073ull,
                                      (1ull << 20) + 3, 1ull << 26, (1ull << 32) - 1, 1ull << 33}) {
            std::size_t bytes = 12345;
            const CUresult rc =
                fn(p, nullptr, bytes, nullptr, nullptr, items, nullptr, nullptr, nullptr);
            if (offset == ScalarType::uint32 && items > std::numeric_limits<std::uint32_t>::max()) {
              EXPECT_EQ(rc, CUDA_ERROR_INVALID_VALUE) << items;
              continue;
            }
            ASSERT_EQ(rc, CUDA_SUCCESS) << items;
            EXPECT_EQ(bytes, expected_bytes(p, n, items))
                << "algorithm " << p.policy.algorithm << " sizes " << t << "/" << n << " items "
                << items;
          }
        }
}

TEST(ScanTempStorage, RefusesWhatTheDispatchCannotRun) {
  EXPECT_EQ(d::select_dispatch(3, 3, ScalarType::uint64, false), nullptr);
  EXPECT_EQ(d::select_dispatch(4, 4, ScalarType::int64, false), nullptr);
  // Structs: 12 to 32 bytes with their own accumulator, from an array or a zip; no other
  // size.
  EXPECT_NE(d::select_dispatch(16, 16, ScalarType::uint32, true), nullptr);
  EXPECT_NE(d::select_dispatch(16, 16, ScalarType::uint32, true, true, /*iterator_input=*/true),
            nullptr);
  EXPECT_EQ(d::select_dispatch(20, 20, ScalarType::uint32, true), nullptr);
  EXPECT_EQ(d::select_dispatch(16, 8, ScalarType::uint32, true), nullptr);
  EXPECT_EQ(d::select_dispatch(20, 20, ScalarType::uint32, true, true, /*iterator_input=*/true),
            nullptr);
  // No element type's accumulator is wider, or narrower than int and not bool.
  EXPECT_EQ(d::select_dispatch(4, 8, ScalarType::uint64, false), nullptr);
  EXPECT_EQ(d::select_dispatch(4, 2, ScalarType::uint64, true), nullptr);
  EXPECT_EQ(d::select_dispatch(1, 2, ScalarType::uint64, false), nullptr);
  auto bad = lookahead();
  bad.policy.block_threads = 256;  // not what CUB launches for 4 warps
  EXPECT_FALSE(d::policy_supported(bad));
  EXPECT_FALSE(d::policy_supported(lookback(0, 24)));
  EXPECT_TRUE(d::policy_supported(lookahead()));
  std::size_t bytes = 0;
  EXPECT_EQ(d::select_dispatch(4, 4, ScalarType::uint64, false)(bad, nullptr, bytes, nullptr, nullptr,
                                                             10, nullptr, nullptr, nullptr),
            CUDA_ERROR_NOT_SUPPORTED);
  // Too small a temp storage: refused before any launch (the context has none).
  const auto p = lookback(128, 24);
  const d::DispatchFn fn = d::select_dispatch(4, 4, ScalarType::uint64, true);
  fn(p, nullptr, bytes, nullptr, nullptr, 5000, nullptr, nullptr, nullptr);
  std::size_t small = bytes - 1;
  const float init = 0;
  void* dev = reinterpret_cast<void*>(std::uintptr_t{0x7f0000000000});
  EXPECT_EQ(
      fn(p, dev, small, dev, dev, 5000, &init, nullptr, cccl_cache::algos::detail::kNoOpState),
      CUDA_ERROR_INVALID_VALUE);
}

