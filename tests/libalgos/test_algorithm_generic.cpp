// Properties every algorithm must have, run for each one of the registry: blob round
// trip and rejection of damaged blobs, key sensitivity to every spec field, spec text
// round trip. An algorithm joins by adding its traits to `Algorithms` and a sample
// spec to `Sample`.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <set>
#include <string_view>

#include "build_cache.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/radix_sort/executable.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "cccl_cache/algos/for_each/build_result.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "core/dispatch_abi.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

template <class A>
struct Sample;
template <>
struct Sample<MergeSort> {
  static merge_sort::Spec spec() { return {}; }
};
template <AlgorithmId Id>
struct Sample<Scan<Id>> {
  static scan::Spec<Id> spec() { return {ScalarType::float32, Operator::plus(), ScalarType::uint64}; }
};
template <>
struct Sample<UnaryTransform> {
  static transform::UnarySpec spec() { return {}; }
};
template <>
struct Sample<BinaryTransform> {
  static transform::BinarySpec spec() { return {}; }
};
template <>
struct Sample<RadixSort> {
  static radix_sort::Spec spec() { return {}; }  // float32 keys: onesweep on sm_90
};
template <>
struct Sample<Reduce> {
  static reduce::Spec spec() { return {}; }
};
template <>
struct Sample<SegmentedReduce> {
  static segmented_reduce::Spec spec() { return {}; }
};
template <>
struct Sample<UniqueByKey> {
  static unique_by_key::Spec spec() { return {}; }
};
template <>
struct Sample<Select> {
  static select::Spec spec() { return {}; }
};
template <>
struct Sample<ThreeWayPartition> {
  static three_way_partition::Spec spec() { return {}; }
};
template <>
struct Sample<HistogramEven> {
  static histogram_even::Spec spec() { return {}; }
};
template <>
struct Sample<BinarySearch> {
  static binary_search::Spec spec() { return {}; }
};
template <>
struct Sample<SegmentedSort> {
  static segmented_sort::Spec spec() { return {}; }
};
template <>
struct Sample<ScanByKey> {
  static scan_by_key::Spec spec() { return {}; }
};
template <>
struct Sample<ForEach> {  // its operator has no default
  static for_each::Spec spec() {
    return {ScalarType::float32, Operator::custom("twice", "__device__ void twice(float& x) { x *= 2; }")};
  }
};

template <class A>
class AlgorithmGeneric : public ::testing::Test {
 protected:
  using Spec = typename A::Spec;
  static const Built<A>& built() {
    const auto& r = test_support::cached_build(Sample<A>::spec(), 90);
    if (!r) throw std::runtime_error(r.error().describe());
    return r->result;
  }
  static std::vector<std::byte> blob() { return serialize(built()); }
  // Serializes the record after a change: well-formed bytes, inconsistent content.
  static std::vector<std::byte> with(const std::function<void(BuildRecord&)>& change) {
    BuildRecord copy = built().record;
    change(copy);
    return serialize_record(copy);
  }
  static Result<BuiltView<A>> read(std::span<const std::byte> b,
                                   std::optional<std::uint32_t> cc = std::nullopt) {
    return deserialize_view<A>(b, cc);
  }
  static bool inside(std::span<const std::byte> blob, const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    return b >= blob.data() && b + n <= blob.data() + blob.size();
  }
};

using Algorithms = ::testing::Types<MergeSort, Reduce, InclusiveScan, ExclusiveScan,
                                    UnaryTransform, BinaryTransform, RadixSort,
                                    SegmentedReduce, UniqueByKey, Select,
                                    ThreeWayPartition, HistogramEven, BinarySearch,
                                    SegmentedSort, ScanByKey, ForEach>;
TYPED_TEST_SUITE(AlgorithmGeneric, Algorithms);

// Changes field `target` of a spec to another value (for operators: another kind, or
// with `source_only` the same custom operator with other source, stateful with
// `state_size` bytes aligned to 4 where that is not 0).
struct MutateField {
  std::size_t target;
  bool source_only = false;
  std::uint32_t state_size = 0;
  std::size_t index = 0;
  bool mutated = false;
  bool hit() { return index++ == target && (mutated = true); }
  void operator()(const Field&, ScalarType& v) {
    if (hit() && !source_only) v = v == ScalarType::int8 ? ScalarType::int16 : ScalarType::int8;
  }
  // An element type: another scalar (a struct's layout and definition: test_struct_types).
  void operator()(const Field&, ElementType& v) {
    if (hit() && !source_only) v = v == ElementType(ScalarType::int8) ? ScalarType::int16 : ScalarType::int8;
  }
  void operator()(const Field&, bool& v) {
    if (hit() && !source_only) v = !v;
  }
  void operator()(const Field&, std::uint32_t& v) {
    if (hit() && !source_only) v += 1;
  }
  void operator()(const Field&, Iterator& v) {
    if (hit() && !source_only) v = v.is_pointer() ? Iterator::constant() : Iterator{};
  }
  void operator()(const Field&, Operator& v) {
    if (!hit()) return;
    if (source_only)
      v = Operator::custom("f", v.source == "a" ? "b" : "a", state_size, state_size ? 4 : 0);
    else
      v = v.kind == OpKind::less ? Operator::greater() : Operator::less();
  }
};

}  // namespace

TYPED_TEST(AlgorithmGeneric, RoundTripIsExactAndStable) {
  const auto& b = this->built();
  const auto blob = this->blob();
  auto back = deserialize<TypeParam>(blob, 90);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->spec, b.spec);
  EXPECT_EQ(back->policy, b.policy);
  EXPECT_EQ(back->record, b.record);
  EXPECT_EQ(serialize(*back), blob);
  EXPECT_TRUE(deserialize<TypeParam>(blob));  // CC unchecked
}

TYPED_TEST(AlgorithmGeneric, ViewBorrowsFromTheBlob) {
  const auto blob = this->blob();
  auto v = this->read(blob, 90);
  ASSERT_TRUE(v) << v.error().describe();
  EXPECT_TRUE(this->inside(blob, v->record.cubin.data(), v->record.cubin.size()));
  EXPECT_TRUE(this->inside(blob, v->record.spec.data(), v->record.spec.size()));
  EXPECT_TRUE(this->inside(blob, v->record.toolchain.data(), v->record.toolchain.size()));
  for (auto k : v->record.kernels()) EXPECT_TRUE(this->inside(blob, k.data(), k.size())) << k;
  EXPECT_EQ(to_owned(v->record), this->built().record);
}

TYPED_TEST(AlgorithmGeneric, EveryTruncationIsCorrupt) {
  const auto blob = this->blob();
  for (std::size_t n = 0; n < blob.size(); n += (n < 512 || n + 512 > blob.size()) ? 1 : 97) {
    auto r = this->read(std::span(blob).first(n));
    ASSERT_FALSE(r) << "prefix " << n;
    EXPECT_EQ(r.error().code, ErrorCode::corrupt) << "prefix " << n;
  }
}

TYPED_TEST(AlgorithmGeneric, HeaderDamageIsRejected) {
  const auto blob = this->blob();
  auto magic = blob;
  magic[0] = std::byte{'X'};
  EXPECT_EQ(this->read(magic).error().code, ErrorCode::corrupt);
  auto version = blob;
  version[4] = static_cast<std::byte>(kBuildFormatVersion + 1);
  auto r = this->read(version);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::format);
  EXPECT_NE(r.error().message.find("version"), std::string::npos);
  // Magic, version, algorithm and CC: every bit flip is an error.
  for (std::size_t at = 0; at < 13; ++at)
    for (int bit = 0; bit < 8; ++bit) {
      auto copy = blob;
      copy[at] ^= std::byte{static_cast<unsigned char>(1u << bit)};
      EXPECT_FALSE(this->read(copy)) << "byte " << at << " bit " << bit;
    }
  EXPECT_EQ(this->read(blob, 80).error().code, ErrorCode::unsupported);
  EXPECT_EQ(this->read(blob, 100).error().code, ErrorCode::unsupported);
}

// No checksum inside a blob (the store's envelope has one): a flip can pass where only
// a checksum would see it (the cubin's code), but nothing crashes and whatever is
// accepted lies inside the blob.
TYPED_TEST(AlgorithmGeneric, RandomFlipsNeverEscapeTheBlob) {
  const auto blob = this->blob();
  std::mt19937_64 rng(7);
  for (int i = 0; i < 400; ++i) {
    auto copy = blob;
    const auto at = rng() % copy.size();
    copy[at] ^= std::byte{static_cast<unsigned char>(1u << (rng() % 8))};
    auto r = this->read(copy);
    if (!r) continue;
    EXPECT_TRUE(this->inside(copy, r->record.cubin.data(), r->record.cubin.size())) << at;
    for (auto k : r->record.kernels()) EXPECT_TRUE(this->inside(copy, k.data(), k.size())) << at;
  }
}

TYPED_TEST(AlgorithmGeneric, GarbageIsCorrupt) {
  std::mt19937_64 rng(42);
  for (std::size_t size : {0u, 1u, 3u, 4u, 16u, 24u, 100u, 4096u}) {
    std::vector<std::byte> noise(size);
    for (auto& b : noise) b = static_cast<std::byte>(rng());
    auto r = this->read(noise);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::corrupt) << size;
  }
}

TYPED_TEST(AlgorithmGeneric, InconsistentRecordsAreCorrupt) {
  const std::size_t kernels = TypeParam::kKernels;
  struct Case {
    std::string what;
    std::function<void(BuildRecord&)> change;
  };
  std::vector<Case> cases = {
      {"cc differs from the cubin's arch", [](BuildRecord& r) { r.cc = 80; }},
      {"cc out of range", [](BuildRecord& r) { r.cc = 7; }},
      {"kernel not in the cubin", [](BuildRecord& r) { r.kernels.back() += "x"; }},
      {"empty kernel name", [](BuildRecord& r) { r.kernels.front().clear(); }},
      {"a kernel missing", [](BuildRecord& r) { r.kernels.pop_back(); }},
      {"a kernel too many", [](BuildRecord& r) { r.kernels.push_back(r.kernels.front()); }},
      {"a value missing", [](BuildRecord& r) { r.values.pop_back(); }},
      {"a value too many", [](BuildRecord& r) { r.values.push_back(0); }},
      {"cubin not an ELF", [](BuildRecord& r) { r.cubin[1] = std::byte{'X'}; }},
      {"cubin truncated", [](BuildRecord& r) { r.cubin.resize(r.cubin.size() / 2); }},
      {"cubin for another machine", [](BuildRecord& r) { r.cubin[18] = std::byte{62}; }},
      {"empty cubin", [](BuildRecord& r) { r.cubin.clear(); }},
      {"no toolchain", [](BuildRecord& r) { r.toolchain.clear(); }},
      {"spec bytes garbage", [](BuildRecord& r) { r.spec = {std::byte{1}, std::byte{2}}; }},
      {"spec truncated", [](BuildRecord& r) { r.spec.pop_back(); }},
      {"unknown algorithm", [](BuildRecord& r) { r.algorithm = static_cast<AlgorithmId>(200); }},
  };
  if (kernels > 1)
    cases.push_back({"kernels swapped", [](BuildRecord& r) { std::swap(r.kernels[0], r.kernels[1]); }});
  for (const auto& c : cases) {
    auto r = this->read(this->with(c.change));
    ASSERT_FALSE(r) << c.what;
    EXPECT_EQ(r.error().code, ErrorCode::corrupt) << c.what << ": " << r.error().message;
  }
}

TYPED_TEST(AlgorithmGeneric, HugeLengthFieldsDoNotAllocate) {
  auto blob = this->blob();
  // After magic(4) version(4) algorithm(1) cc(4): the spec's u64 length.
  for (int i = 0; i < 8; ++i) blob[13 + i] = std::byte{0};
  blob[13 + 7] = std::byte{0x80};
  auto r = this->read(blob);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::corrupt);
  EXPECT_NE(r.error().message.find("length"), std::string::npos) << r.error().message;
}

TYPED_TEST(AlgorithmGeneric, EveryFieldCcAndToolchainPartChangeTheKey) {
  using Spec = typename TypeParam::Spec;
  const Spec base = Sample<TypeParam>::spec();
  Toolchain tc;
  tc.cccl_version = 3005000;
  tc.nvrtc_major = tc.nvjitlink_major = 13;
  tc.compile_options = "-std=c++20";
  std::vector<std::pair<std::string, CacheKey>> keys = {{"base", cache_key(base, 90, tc)}};
  for (std::size_t i = 0;; ++i) {
    Spec s = base;
    MutateField m{i};
    Spec::fields(s, m);
    if (!m.mutated) break;
    keys.emplace_back("field " + std::to_string(i), cache_key(s, 90, tc));
    Spec s2 = base;
    MutateField src{i, true};
    Spec::fields(s2, src);
    Spec s3 = s2;
    MutateField src2{i, true};
    Spec::fields(s3, src2);
    if (!(s2 == base) && !(s3 == s2)) {  // an operator field: its source counts
      keys.emplace_back("source of field " + std::to_string(i), cache_key(s2, 90, tc));
      keys.emplace_back("other source of field " + std::to_string(i), cache_key(s3, 90, tc));
      for (const std::uint32_t size : {4u, 8u}) {  // its state layout counts too
        Spec s4 = base;
        MutateField state{i, true, size};
        Spec::fields(s4, state);
        keys.emplace_back("state " + std::to_string(size) + "/4 of field " + std::to_string(i),
                          cache_key(s4, 90, tc));
      }
    }
  }
  keys.emplace_back("cc 80", cache_key(base, 80, tc));
  auto vary = [&](std::string what, auto change) {
    Toolchain t = tc;
    change(t);
    keys.emplace_back(std::move(what), cache_key(base, 90, t));
  };
  vary("cccl", [](Toolchain& t) { t.cccl_version += 1; });
  vary("nvrtc", [](Toolchain& t) { t.nvrtc_minor += 1; });
  vary("nvjitlink", [](Toolchain& t) { t.nvjitlink_minor += 1; });
  vary("options", [](Toolchain& t) { t.compile_options += " -G"; });
  vary("format", [](Toolchain& t) { t.build_format_version += 1; });
  vary("dispatch abi", [](Toolchain& t) {
    t.dispatch_abi[std::string(algorithm_name(Spec::kAlgorithm))] = 0x0123456789abcdefull;
  });
  vary("dispatch abi, low bits", [](Toolchain& t) {  // not in the fingerprint's 8 digits
    t.dispatch_abi[std::string(algorithm_name(Spec::kAlgorithm))] = 1;
  });
  std::set<Digest128> digests;
  for (const auto& [what, key] : keys) EXPECT_TRUE(digests.insert(key.spec).second) << what;
  EXPECT_EQ(cache_key(base, 90, tc), cache_key(Spec(base), 90, tc));
}

// Each algorithm's dispatch ABI (the host dispatch's side of its kernel interface: its
// DispatchParams layout, the kernels' argument stand-ins, the CUB version), pinned. When
// one fails, that algorithm's ABI changed, and with it the digest in each of its keys
// (Toolchain::dispatch_abi_of), so its old entries are misses: check that its kernels
// still match its dispatch, then update its line here.
const std::map<std::string_view, std::string_view> kDispatchAbi = {
    {"merge_sort",
      "cub=300500 cccl=3005000 params@0:32 launch@0:8 block_threads@8:4 "
      "items_per_tile@12:4 block_sort_vsmem_per_block@16:8 merge_vsmem_per_block@24:8 "
      "null=1/1 compare=8/8 vsmem=8/8 policy=24/4 b1=1/1 b2=2/2 b4=4/4 b8=8/8"},
    {"reduce",
      "cub=300500 cccl=3005000 params@0:24 launch@0:8 multi_tile_threads@8:4 "
      "multi_tile_items@12:4 single_tile_threads@16:4 single_tile_items@20:4 op=8/8 "
      "identity=1/1 even_share32=40/4 even_share64=72/8 b1=1/1 b2=2/2 b4=4/4 b8=8/8"},
    {"inclusive_scan",
      "cub=300500 cccl=3005000 params@0:80 launch@0:8 algorithm@8:4 "
      "block_threads@12:4 items_per_thread@16:4 reduce_and_scan_warps@20:4 "
      "lookahead_items_per_thread@24:4 lookahead_stages@28:4 block_idx_stages@32:4 "
      "accum_size@36:4 accum_align@40:4 null=1/1 op=8/8 init1=16/8 init8=16/8 tile1=16/8 tile8=16/8 txn2=4/4 ws2=8/8 "
      "w1=1/1 w2=2/2 w4=4/4 w8=8/8 s12=12/4 s32=32/8 init_s12=24/8 init_s32=40/8 tile_s12=24/8 "
      "ws_s12=16/16"},
    {"exclusive_scan",
      "cub=300500 cccl=3005000 params@0:80 launch@0:8 algorithm@8:4 "
      "block_threads@12:4 items_per_thread@16:4 reduce_and_scan_warps@20:4 "
      "lookahead_items_per_thread@24:4 lookahead_stages@28:4 block_idx_stages@32:4 "
      "accum_size@36:4 accum_align@40:4 null=1/1 op=8/8 init1=16/8 init8=16/8 tile1=16/8 tile8=16/8 txn2=4/4 ws2=8/8 "
      "w1=1/1 w2=2/2 w4=4/4 w8=8/8 s12=12/4 s32=32/8 init_s12=24/8 init_s32=40/8 tile_s12=24/8 "
      "ws_s12=16/16"},
    {"unary_transform",
      "cub=300500 cccl=3005000 params@0:120 launch@0:8 policy@8:52 num_inputs@60:4 "
      "in_size@64:8 in_align@72:8 out_size@80:4 async_config@84:16 prefetch_config@100:16 "
      "pred=1/1 op=8/8 out=8/8 arg=16/8 aligned=16/8"},
    {"binary_transform",
      "cub=300500 cccl=3005000 params@0:120 launch@0:8 policy@8:52 num_inputs@60:4 "
      "in_size@64:8 in_align@72:8 out_size@80:4 async_config@84:16 prefetch_config@100:16 "
      "pred=1/1 op=8/8 out=8/8 arg=16/8 aligned=16/8"},
    {"radix_sort",
      "cub=300500 cccl=3005000 params@0:88 launch@0:8 policy@8:80 null=1/1 "
      "decomposer=1/1 even_share32=40/4 even_share64=72/8 b1=1/1 b2=2/2 b4=4/4 b8=8/8 "
      "init_threads@0:256"},
    {"segmented_reduce",
      "cub=300500 cccl=3005000 params@0:32 launch@0:8 threads@8:4 items@12:4 "
      "medium_warp_threads@16:4 medium_items@20:4 small_warp_threads@24:4 "
      "small_items@28:4 op=8/8 max_segment_size=8/8 b1=1/1 b2=2/2 b4=4/4 b8=8/8"},
    {"unique_by_key",
      "cub=300500 cccl=3005000 params@0:24 launch@0:8 threads@8:4 items@12:4 "
      "vsmem_per_block@16:4 items=8/8 op=8/8 selected=8/8 tile4=8/8 tile8=8/8 vsmem=8/8"},
    {"select",
      "cub=300500 cccl=3005000 params@0:24 launch@0:8 threads@8:4 items@12:4 "
      "vsmem_per_block@16:4 items=8/8 op=8/8 null=1/1 selected=8/8 tile=8/8 "
      "context=40/8 partition=4/4 vsmem=8/8"},
    {"three_way_partition",
      "cub=300500 cccl=3005000 params@0:16 launch@0:8 threads@8:4 items@12:4 "
      "items=8/8 selected=8/8 op=8/8 tile=8/8 partition=4/4 context32=24/8 "
      "context64=32/8"},
    {"histogram_even",
      "cub=300500 cccl=3005000 params@0:40 launch@0:8 threads@8:4 pixels@12:4 "
      "counter_size@32:4 samples=8/8 bins=8/8 counts=4/4 queue=8/8 b1=1/1 b2=2/2 "
      "b4=4/4 b8=8/8"},
    {"binary_search",
      "cub=300500 cccl=3005000 params@0:120 launch@0:8 policy@8:52 num_inputs@60:4 "
      "in_size@64:8 in_align@72:8 out_size@80:4 async_config@84:16 prefetch_config@100:16 "
      "pred=1/1 op=24/8 out=8/8 arg=16/8 aligned=16/8"},
    {"segmented_sort",
      "cub=300500 cccl=3005000 params@0:56 launch@0:8 large_threads@8:4 large_items@12:4 "
      "radix_bits@16:4 medium_threads@20:4 medium_warp_threads@24:4 medium_items@28:4 "
      "small_threads@32:4 small_warp_threads@36:4 small_items@40:4 partitioning_threshold@44:4 "
      "partition_threads@48:4 partition_items@52:4 null=1/1 b1=1/1 b2=2/2 b4=4/4 b8=8/8 "
      "double_buffer8=16/8 selector32=32/8 selector64=32/8 indices=4/4 medium_indices=8/8 "
      "tile=8/8 partition=4/4 context=32/8 partition_init_threads@0:256"},
    {"scan_by_key",
      "cub=300500 cccl=3005000 params@0:40 launch@0:8 block_threads@8:4 items_per_thread@12:4 "
      "accum_size@16:4 accum_align@20:4 null=1/1 op=1/1 init=8/8 tile1=8/8 tile8=8/8 txn1=8/8 "
      "txn4=16/16 txn8=16/16 tile_s12=24/8 pair_s12=16/4 pair_s16_4=20/4 pair_s32_8=40/8 "
      "pair_s32_16=48/16 b1=1/1 b2=2/2 b4=4/4 b8=8/8"},
    {"for_each",
      "cub=300500 cccl=3005000 params@0:32 launch@0:8 block_threads@8:4 items_per_thread@12:4 "
      "items_size@16:4 op_offset@20:4 op_size@24:4 wrapper_max@0:1152"},
};

TYPED_TEST(AlgorithmGeneric, DispatchAbiIsPinned) {
  const std::string_view own = algorithm_name(TypeParam::Spec::kAlgorithm);
  const auto golden = kDispatchAbi.find(own);
  ASSERT_NE(golden, kDispatchAbi.end()) << own << " has no pinned dispatch ABI here";
  EXPECT_EQ(TypeParam::dispatch_abi(), golden->second);
  EXPECT_EQ(Toolchain::current().dispatch_abi_of(own),
            detail::dispatch_abi_digest(golden->second));
}

// A key and an entry's fingerprint cover the algorithm's own dispatch ABI and no other
// algorithm's: the real set of ABI lines, the set with a new algorithm's line, with every
// other line changed or with the others gone give one key and one fingerprint (so its
// stored entries stay valid); a change of its own line changes both.
TYPED_TEST(AlgorithmGeneric, KeyCoversItsOwnDispatchAbiOnly) {
  const auto spec = Sample<TypeParam>::spec();
  const std::string own(algorithm_name(TypeParam::Spec::kAlgorithm));
  const std::vector<detail::AbiLine>& real = detail::dispatch_abi_lines();
  auto with_lines = [](const std::vector<detail::AbiLine>& lines) {
    Toolchain t = Toolchain::current();
    t.dispatch_abi = detail::dispatch_abi_digests(lines);
    return t;
  };
  const Toolchain base = with_lines(real);
  const CacheKey key = cache_key(spec, 90, base);
  const std::string fp = base.fingerprint(own);
  ASSERT_EQ(key, cache_key(spec, 90));  // the real set is this process's toolchain
  ASSERT_EQ(this->built().record.toolchain, fp);  // and a build stores its fingerprint
  ASSERT_NE(base.dispatch_abi_of(own), 0u);

  auto added = real;
  added.push_back({"a_later_algorithm", "cub=300500 cccl=3005000 params@0:48 launch@0:8"});
  auto others_changed = real;
  for (auto& line : others_changed)
    if (line.algorithm != own) line.text += " extra@48:8";
  std::vector<detail::AbiLine> alone;
  for (const auto& line : real)
    if (line.algorithm == own) alone.push_back(line);
  for (const auto& [what, lines] : {std::pair{"another algorithm added", added},
                                    std::pair{"every other algorithm changed", others_changed},
                                    std::pair{"every other algorithm gone", alone}}) {
    const Toolchain t = with_lines(lines);
    EXPECT_NE(t.dispatch_abi, base.dispatch_abi) << what;  // the set did change
    EXPECT_EQ(cache_key(spec, 90, t), key) << what;
    EXPECT_EQ(t.fingerprint(own), fp) << what;
  }

  auto own_changed = real;
  for (auto& line : own_changed)
    if (line.algorithm == own) line.text += " extra@48:8";
  const Toolchain t = with_lines(own_changed);
  EXPECT_NE(cache_key(spec, 90, t), key);
  EXPECT_NE(t.fingerprint(own), fp);
  const std::string changed_fp = t.fingerprint(own);
  EXPECT_EQ(algos::split_fingerprint(changed_fp).shared, algos::split_fingerprint(fp).shared);
}

TYPED_TEST(AlgorithmGeneric, SpecTextAndEncodingRoundTrip) {
  using Spec = typename TypeParam::Spec;
  const Spec spec = Sample<TypeParam>::spec();
  const auto* entry = find_algorithm(Spec::kAlgorithm);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(find_algorithm(entry->name), entry);
  auto text = entry->to_text(encode_fields(spec));
  ASSERT_TRUE(text);
  auto back = entry->from_text(*text);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, to_any(spec));
  EXPECT_EQ(spec_text(*back), spec_text(spec));
  auto decoded = decode_fields<Spec>(back->fields);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, spec);
  // Unknown fields and missing required ones are named.
  auto extra = *text;
  extra.push_back({"no_such_field", "1", {}});
  auto r = entry->from_text(extra);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no_such_field"), std::string::npos);
  for (const auto& f : entry->fields()) {
    if (!f.required) continue;
    auto missing = *text;
    std::erase_if(missing, [&](const FieldText& t) { return t.name == f.name; });
    auto m = entry->from_text(missing);
    ASSERT_FALSE(m) << f.name;
    EXPECT_NE(m.error().message.find(f.name), std::string::npos);
  }
  // Every truncation of the encoding is rejected.
  const auto bytes = encode_fields(spec);
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(decode_fields<Spec>(std::span(bytes).first(n))) << n;
}

// The key covers our own code generation: the digest follows the generated source (a
// change of a field that shapes it changes it), not a custom operator's name or source
// (the key holds those itself).
TYPED_TEST(AlgorithmGeneric, CodegenDigestFollowsTheGeneratedSource) {
  using Spec = typename TypeParam::Spec;
  const Spec base = Sample<TypeParam>::spec();
  const auto digest = TypeParam::codegen_digest(base);
  EXPECT_EQ(TypeParam::codegen_digest(Spec(base)), digest);
  bool some_field_shapes_the_source = false;
  for (std::size_t i = 0;; ++i) {
    Spec s = base;
    MutateField m{i};
    Spec::fields(s, m);
    if (!m.mutated) break;
    some_field_shapes_the_source |= TypeParam::codegen_digest(s) != digest;
    Spec a = base, b = base;
    MutateField src_a{i, true}, src_b{i, true};
    Spec::fields(a, src_a);
    Spec::fields(b, src_b);
    Spec::fields(b, src_b = MutateField{i, true});
    if (!(a == b)) EXPECT_EQ(TypeParam::codegen_digest(a), TypeParam::codegen_digest(b)) << i;
  }
  EXPECT_TRUE(some_field_shapes_the_source);
}
