// Radix sort without a GPU: spec validation and text, builds for sm_80 (multi-pass for
// 2-byte keys) and sm_90 (onesweep) naming the kernels CUB's dispatch launches, the
// record's checks, and the temp-storage size CUB's dispatch computes through our factory.
#include <gtest/gtest.h>

#include "build_cache.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "core/dispatch_abi.hpp"
#include "core/materialize.hpp"
#include "radix_sort/dispatch.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using radix_sort::Spec;

namespace {

TEST(RadixSortSpec, ValidatesEachFieldByName) {
  EXPECT_TRUE(Spec{}.validate());
  for (ScalarType t : {ScalarType::int8, ScalarType::uint64, ScalarType::float16,
                       ScalarType::bfloat16, ScalarType::float64}) {
    Spec s;
    s.key_type = t;
    s.value_type = t;
    EXPECT_TRUE(s.validate()) << name(t);
  }
  Spec s;
  s.key_type = ScalarType::none;
  ASSERT_FALSE(s.validate());
  EXPECT_NE(s.validate().error().message.find("'keys'"), std::string::npos);
  s = {};
  s.value_type = static_cast<ScalarType>(200);
  ASSERT_FALSE(s.validate());
  EXPECT_NE(s.validate().error().message.find("'values'"), std::string::npos);
  for (ScalarType o : {ScalarType::int32, ScalarType::int64, ScalarType::float32}) {
    s = {};
    s.offset_type = o;
    ASSERT_FALSE(s.validate());
    EXPECT_NE(s.validate().error().message.find("'offset'"), std::string::npos);
  }
}

TEST(RadixSortSpec, TextRoundTrip) {
  Spec s;
  s.key_type = ScalarType::bfloat16;
  s.value_type = ScalarType::uint32;
  s.descending = true;
  s.offset_type = ScalarType::uint64;
  const std::string text = spec_text(s);
  EXPECT_EQ(text, "radix_sort keys=bfloat16 values=uint32 descending=true offset=uint64");
  const AlgorithmEntry* entry = find_algorithm("radix_sort");
  ASSERT_NE(entry, nullptr);
  auto parsed = entry->from_text(fields_as_text(s));
  ASSERT_TRUE(parsed) << parsed.error().describe();
  EXPECT_EQ(parsed->fields, encode_fields(s));
  EXPECT_EQ(algos::spec_text(*parsed), text);
  auto bad = entry->from_text({{"keys", "float32", ""}, {"offset", "int32", ""}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("offset"), std::string::npos);
  EXPECT_FALSE(entry->from_text({{"values", "float32", ""}})) << "keys are required";
}

struct BuildCase {
  ScalarType key, value;
  bool descending;
  std::uint32_t cc;
  bool onesweep;
};

const BuildCase kBuilds[] = {
    {ScalarType::float32, ScalarType::none, false, 90, true},
    {ScalarType::uint32, ScalarType::uint32, true, 80, true},
    {ScalarType::uint16, ScalarType::none, true, 80, false},
};

const algos::detail::BuildReport<RadixSort>& built(const BuildCase& c) {
  Spec s;
  s.key_type = c.key;
  s.value_type = c.value;
  s.descending = c.descending;
  const auto& r = test_support::cached_build(s, c.cc);
  if (!r) throw std::runtime_error(r.error().describe());
  return *r;
}

TEST(RadixSortBuild, NamesTheKernelsOfTheProbedAlgorithm) {
  for (const BuildCase& c : kBuilds) {
    SCOPED_TRACE(std::string(name(c.key)) + " sm_" + std::to_string(c.cc));
    const auto& b = built(c).result;
    EXPECT_EQ(radix_sort::detail::selects_onesweep(b.spec, c.cc), c.onesweep);
    EXPECT_EQ(b.policy.onesweep, c.onesweep ? 1u : 0u);
    // The host's evaluation of CUB's selector (what test_radix_sort_temp_storage compares
    // the closed form on) is the device compile's.
    EXPECT_EQ(radix_sort::detail::selected_policy(b.spec, c.cc), b.policy);
    ASSERT_EQ(b.record.kernels.size(), RadixSort::kKernels);
    const auto& k = b.record.kernels;
    EXPECT_NE(k[0].find("DeviceRadixSortSingleTileKernel"), std::string::npos);
    if (c.onesweep) {
      EXPECT_NE(k[1].find("DeviceRadixSortHistogramKernel"), std::string::npos);
      EXPECT_NE(k[5].find("DeviceRadixSortOnesweepKernel"), std::string::npos);
      EXPECT_EQ(b.policy.onesweep_radix_bits, 8u);
    } else {
      EXPECT_NE(k[1].find("DeviceRadixSortUpsweepKernel"), std::string::npos);
      EXPECT_NE(k[3].find("RadixSortScanBinsKernel"), std::string::npos);
      EXPECT_NE(k[5].find("DeviceRadixSortDownsweepKernel"), std::string::npos);
      EXPECT_NE(k[4], k[5]);
    }
    // Stored and read back: every check passes, launch bounds included.
    auto view = deserialize_view<RadixSort>(serialize(b), c.cc);
    ASSERT_TRUE(view) << view.error().describe();
    EXPECT_EQ(view->policy, b.policy);
  }
}

TEST(RadixSortBuild, SwappedKernelsOrAnotherAlgorithmAreCorrupt) {
  for (const BuildCase& c : kBuilds) {
    const auto& b = built(c).result;
    for (auto [i, j] : {std::pair{1, 2}, std::pair{3, 4}, std::pair{4, 5}, std::pair{0, 5}}) {
      BuildRecord r = b.record;
      std::swap(r.kernels[i], r.kernels[j]);
      EXPECT_FALSE(deserialize_view<RadixSort>(serialize_record(r))) << i << "<->" << j;
    }
    radix_sort::Policy other = b.policy;
    other.onesweep ^= 1;
    BuildRecord r = b.record;
    r.values = policy_values(other);
    EXPECT_FALSE(deserialize_view<RadixSort>(serialize_record(r)));
    other = b.policy;
    other.single_tile_threads += 32;  // launch bounds no longer agree
    r.values = policy_values(other);
    EXPECT_FALSE(deserialize_view<RadixSort>(serialize_record(r)));
  }
}

// An sm_90 device with 132 SMs as bind fixes it; the size path reads no driver.
algos::detail::LaunchContext context(std::uint32_t cc, const radix_sort::Policy& p) {
  algos::detail::LaunchContext c;
  c.device = 0;
  c.ptx_version = int(cc) * 10;
  c.sm_count = 132;
  c.num_kernels = RadixSort::kKernels;
  const auto threads = radix_sort::detail::launch_threads(p);
  for (std::size_t i = 0; i < c.num_kernels; ++i)
    c.kernels[i] = {reinterpret_cast<CUfunction>(0x100 + i), int(threads[i]), 2, 0};
  return c;
}

std::uint64_t round256(std::uint64_t x) { return (x + 255) / 256 * 256; }

TEST(RadixSortTempStorage, OnesweepSizesAreCubsAndNeedNoDriver) {
  const auto& b = built(kBuilds[0]).result;  // float32 keys, uint32 offsets, sm_90
  const auto ctx = context(90, b.policy);
  radix_sort::detail::DispatchParams params{&ctx, b.policy};
  const auto fn = radix_sort::detail::select_dispatch(4, 0, ScalarType::uint32);
  ASSERT_NE(fn, nullptr);
  const std::uint64_t tile = std::uint64_t{b.policy.onesweep_items} * b.policy.onesweep_threads;
  const std::uint64_t portion = ((1u << 28) - 1) / tile * tile;
  for (std::uint64_t n : {0ull, 1ull, 5000ull, 1ull << 20, (1ull << 28) + 3}) {
    for (auto [begin, end] : {std::pair{0, 32}, std::pair{3, 17}}) {
      for (bool db : {false, true}) {
        std::size_t bytes = 0;
        radix_sort::DoubleBuffers none;
        ASSERT_EQ(fn(params, nullptr, bytes, none, n, begin, end, db, nullptr), CUDA_SUCCESS);
        const std::uint64_t single = std::uint64_t{b.policy.single_tile_threads} * b.policy.single_tile_items;
        if (n <= single) {
          EXPECT_EQ(bytes, 1u) << n;
          continue;
        }
        const std::uint64_t passes = (end - begin + 7) / 8, portions = (n + portion - 1) / portion;
        const std::uint64_t blocks = (std::min(n, portion) + tile - 1) / tile;
        const std::uint64_t extra = db || passes <= 1 ? 0 : n * 4;
        EXPECT_EQ(bytes, round256(portions * passes * 256 * 4) + round256(blocks * 256 * 4) +
                             round256(extra) + round256(portions * passes * 4) + 255)
            << n << " bits " << begin << ".." << end << (db ? " double buffer" : "");
      }
    }
  }
  std::size_t bytes = 0;
  radix_sort::DoubleBuffers none;
  EXPECT_EQ(fn(params, nullptr, bytes, none, 1ull << 32, 0, 32, false, nullptr),
            CUDA_ERROR_INVALID_VALUE);
}

TEST(RadixSortTempStorage, MultiPassSizeUsesTheBoundOccupancy) {
  const auto& b = built(kBuilds[2]).result;  // uint16 keys, sm_80, multi-pass
  const auto ctx = context(80, b.policy);
  radix_sort::detail::DispatchParams params{&ctx, b.policy};
  const auto fn = radix_sort::detail::select_dispatch(2, 0, ScalarType::uint32);
  const std::uint64_t n = 1u << 20;
  std::size_t bytes = 0;
  radix_sort::DoubleBuffers none;
  ASSERT_EQ(fn(params, nullptr, bytes, none, n, 0, 16, false, nullptr), CUDA_SUCCESS);
  // spine: (occupancy 2 * 132 SMs * CUB_PTX_SUBSCRIPTION_FACTOR 5) * digits + scan tile.
  const std::uint64_t spine = (2 * 132 * 5) * (1u << b.policy.downsweep_radix_bits) +
                              std::uint64_t{b.policy.scan_threads} * b.policy.scan_items;
  EXPECT_EQ(bytes, round256(spine * 4) + round256(n * 2) + 255);
  // An occupancy question for a block size the bind did not fix fails, not the driver.
  auto wrong = ctx;
  wrong.kernels[radix_sort::downsweep].block_threads += 32;
  params.launch = &wrong;
  EXPECT_EQ(fn(params, nullptr, bytes, none, n, 0, 16, false, nullptr), CUDA_ERROR_INVALID_VALUE);
}

// An argsort (values_in counting): the six kernels of the probed algorithm and the one
// that materializes the values, only in its records; a record of the other shape, a
// kernel list of the other length or a materialize kernel out of its slot is corrupt.
Spec argsort_spec(ScalarType value) {
  Spec s;
  s.key_type = ScalarType::float32;
  s.value_type = value;
  s.values_in = Iterator::counting();
  return s;
}

TEST(RadixSortArgsort, BuildsTheMaterializeKernelAfterTheSixSlots) {
  for (ScalarType v : {ScalarType::int32, ScalarType::int64}) {
    SCOPED_TRACE(name(v));
    const auto& b = test_support::built_or_throw(argsort_spec(v), 90);
    ASSERT_EQ(b.record.kernels.size(), RadixSort::kKernels + 1);
    EXPECT_EQ(RadixSort::kernel_count(b.spec), RadixSort::kKernels + 1);
    EXPECT_EQ(b.policy.onesweep, 1u);
    EXPECT_NE(b.record.kernels[radix_sort::materialize_values].find("22cccl_cache_materialize"),
              std::string::npos)
        << b.record.kernels.back();
    // The sort's kernels and policy are those of the same spec with a value array.
    Spec pairs = b.spec;
    pairs.values_in = {};
    const auto& p = test_support::built_or_throw(pairs, 90);
    EXPECT_EQ(b.policy, p.policy);
    EXPECT_TRUE(std::equal(p.record.kernels.begin(), p.record.kernels.end(), b.record.kernels.begin()));
    auto view = deserialize_view<RadixSort>(serialize(b), 90);
    ASSERT_TRUE(view) << view.error().describe();
    EXPECT_EQ(view->spec, b.spec);
    EXPECT_NE(cache_key(b.spec, 90), cache_key(pairs, 90));
  }
}

TEST(RadixSortArgsort, RecordsOfTheOtherShapeAreCorrupt) {
  const auto& b = test_support::built_or_throw(argsort_spec(ScalarType::int32), 90);
  Spec pairs_spec = b.spec;
  pairs_spec.values_in = {};
  const auto& pairs = test_support::built_or_throw(pairs_spec, 90);
  const std::vector<std::pair<std::string, BuildRecord>> cases = [&] {
    std::vector<std::pair<std::string, BuildRecord>> out;
    BuildRecord r = b.record;
    r.kernels.pop_back();
    out.emplace_back("argsort without its materialize kernel", r);
    r = b.record;
    std::swap(r.kernels[0], r.kernels[radix_sort::materialize_values]);
    out.emplace_back("materialize kernel swapped with the single-tile one", r);
    r = b.record;
    r.spec = pairs.record.spec;
    out.emplace_back("a value-array spec with seven kernels", r);
    r = pairs.record;
    r.spec = b.record.spec;
    out.emplace_back("an argsort spec with six kernels", r);
    r = pairs.record;
    r.kernels.push_back(b.record.kernels.back());
    out.emplace_back("a value-array record with the materialize kernel", r);
    return out;
  }();
  for (const auto& [what, r] : cases) {
    auto view = deserialize_view<RadixSort>(serialize_record(r), 90);
    ASSERT_FALSE(view) << what;
    EXPECT_EQ(view.error().code, ErrorCode::corrupt) << what;
  }
}

TEST(RadixSortArgsort, TheValuesTakeWholeBlocksBeforeCubsTempStorage) {
  using algos::detail::materialized_bytes;
  EXPECT_EQ(materialized_bytes(0, ScalarType::int32), 0u);
  EXPECT_EQ(materialized_bytes(1, ScalarType::int32), 256u);
  EXPECT_EQ(materialized_bytes(64, ScalarType::int32), 256u);
  EXPECT_EQ(materialized_bytes(65, ScalarType::int32), 512u);
  EXPECT_EQ(materialized_bytes(32, ScalarType::int64), 256u);
  EXPECT_EQ(materialized_bytes((1u << 20) + 3, ScalarType::int64), round256(((1u << 20) + 3) * 8));
  EXPECT_EQ(materialized_bytes(~0ull, ScalarType::int64), std::nullopt);
  EXPECT_EQ(materialized_bytes(1, ScalarType::none), std::nullopt);
}

}  // namespace
