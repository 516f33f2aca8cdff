// NVRTC builds of struct element types for sm_80 and sm_90 (merge sort with struct keys,
// keys only and with struct values; select and three-way partition over struct items;
// unique_by_key of struct keys and values; binary search of struct items; transforms
// from and to structs; reduce, segmented reduce and scans of struct items; scans by key
// of struct keys and values): each round-trips through
// its blob, every truncation is corrupt, and a struct whose declared layout is not the
// compiled one fails the build with NVRTC's log naming it.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/blob.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/radix_sort/build_result.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "struct_specs.hpp"
#include "three_way_partition_iterator_specs.hpp"
#include "zip_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using namespace test_support;

namespace {

template <class Spec>
void expect_builds_and_round_trips(const Spec& spec) {
  using A = typename Spec::Algorithm;
  for (const std::uint32_t cc : {80u, 90u}) {
    SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
    ASSERT_TRUE(spec.validate());
    const auto& r = cached_build(spec, cc);
    ASSERT_TRUE(r) << r.error().describe();
    const auto& built = r->result;
    EXPECT_EQ(built.record.cc, cc);
    EXPECT_FALSE(built.record.cubin.empty());
    const auto blob = serialize(built);
    auto back = deserialize<A>(blob, cc);
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->spec, spec);
    EXPECT_EQ(back->record, built.record);
    EXPECT_EQ(serialize(*back), blob);
    for (std::size_t n = 0; n < blob.size(); n += n < 1024 ? 1 : 211) {
      auto cut = deserialize_view<A>(std::span(blob).first(n));
      ASSERT_FALSE(cut) << "prefix " << n;
      EXPECT_EQ(cut.error().code, ErrorCode::corrupt) << "prefix " << n;
    }
  }
}

TEST(StructTypesBuild, MergeSortWithStructKeysBuilds) { expect_builds_and_round_trips(sort_key3()); }

TEST(StructTypesBuild, MergeSortWithStructKeysAndValuesBuilds) {
  expect_builds_and_round_trips(sort_key3_payload());
}

TEST(StructTypesBuild, RadixAndSegmentedSortWithStructValuesBuild) {
  expect_builds_and_round_trips(radix_key3_values());
  expect_builds_and_round_trips(segmented_payload_values());
}

// Scans by key of 12-byte struct keys and values (exclusive), of 16-byte values aligned 4,
// and of 16-byte values aligned 8 read from a zip: each records CUB's accumulator, the
// struct, whose tile state the bind shapes.
TEST(StructTypesBuild, ScanByKeyOfStructKeysAndValuesBuilds) {
  expect_builds_and_round_trips(scan_by_key_key3_stats3());
  expect_builds_and_round_trips(scan_by_key_quads());
  expect_builds_and_round_trips(scan_by_key_zip_argmax());
  for (const auto& [spec, align] : {std::pair{scan_by_key_quads(), 4u}, std::pair{scan_by_key_zip_argmax(), 8u}}) {
    const auto& r = cached_build(spec, 90);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.policy.accum_size, 16u);
    EXPECT_EQ(r->result.policy.accum_align, align);
  }
}

TEST(StructTypesBuild, SelectOverStructItemsBuilds) { expect_builds_and_round_trips(select_heavy()); }

// unique_by_key of struct keys and values from arrays, and of struct keys from a zip of
// their fields (all four arguments then iterators, the outputs arrays of the struct).
TEST(StructTypesBuild, UniqueByKeyOfStructKeysAndValuesBuilds) {
  expect_builds_and_round_trips(unique_key3_payload());
  expect_builds_and_round_trips(unique_run_starts());
}

// Binary search of struct items (the lower and the upper bound), and transforms from a
// struct, to a struct and from a zip.
TEST(StructTypesBuild, BinarySearchOfStructItemsBuilds) {
  expect_builds_and_round_trips(lower_bound_key3());
  expect_builds_and_round_trips(upper_bound_key3());
}
TEST(StructTypesBuild, TransformsFromAndToStructsBuild) {
  expect_builds_and_round_trips(transform_weight());
  expect_builds_and_round_trips(transform_pair());
  expect_builds_and_round_trips(transform_weighted_positions());
}

// Segmented reduce of struct items (8 and 12 bytes), and of a zip into 16-byte structs.
TEST(StructTypesBuild, SegmentedReduceOfStructItemsBuilds) {
  expect_builds_and_round_trips(segmented_argmax());
  expect_builds_and_round_trips(segmented_stats3());
  expect_builds_and_round_trips(zip_segmented_argmax64());
}

// Three-way partition of struct items: from arrays, and from a zip of their fields into
// arrays (the kernel then takes all four arguments as iterators, arrays of the struct).
TEST(StructTypesBuild, ThreeWayPartitionOfStructItemsBuilds) {
  expect_builds_and_round_trips(partition_payload());
  expect_builds_and_round_trips(partition_positions());
}

// Reduce of struct items: the accumulator the kernels' compile reports is the struct.
TEST(StructTypesBuild, ReduceOverStructItemsBuilds) {
  for (const reduce::Spec& spec : {reduce_argmax(), reduce_stats3()}) {
    expect_builds_and_round_trips(spec);
    const auto& r = cached_build(spec, 90);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.policy.accum_size, spec.type.layout.size);
    EXPECT_EQ(r->result.policy.accum_align, spec.type.layout.alignment);
  }
}

// Scans of struct items: the accumulator is the struct, and CUB tunes them as look-back
// on CC 9.0.
TEST(StructTypesBuild, ScansOverStructItemsBuild) {
  auto check = [](const auto& spec) {
    expect_builds_and_round_trips(spec);
    const auto& r = cached_build(spec, 90);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.policy.accum_size, spec.type.layout.size);
    EXPECT_EQ(r->result.policy.accum_align, spec.type.layout.alignment);
    EXPECT_EQ(r->result.policy.algorithm, 0u);
  };
  check(scan_stats3());
  check(scan_argmax());
  check(scan_quad_seeded());
  // CUB tunes them as look-ahead from CC 10.0, which the host dispatch does not run for
  // structs: the build says so (no entry).
  const auto ahead = InclusiveScan::build(scan_stats3(), 100);
  ASSERT_FALSE(ahead);
  EXPECT_EQ(ahead.error().code, ErrorCode::unsupported);
  EXPECT_NE(ahead.error().message.find("look-ahead"), std::string::npos) << ahead.error().message;
}

// An operator over struct items whose result is not the struct: CUB's reduce cannot fold
// items into that accumulator, so the build fails with NVRTC's log naming it (never an
// entry; accept_accumulator refuses what a compile might still let through).
TEST(StructTypesBuild, AReduceOperatorNotReturningTheStructFailsTheBuild) {
  reduce::Spec spec = reduce_argmax();
  spec.op = Operator::custom("larger", "__device__ double larger(vi a, vi b) { return a.value > b.value ? a.value : b.value; }");
  ASSERT_TRUE(spec.validate());
  const auto r = Reduce::build(spec, 90);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("cccl_cache_accum_t"), std::string::npos) << r.error().message;
}

// The scans' operators over struct items must return the struct: one returning a number
// fails the build (NVRTC's log, or the accumulator's refusal naming it), never converting
// the number into a struct.
TEST(StructTypesBuild, AScanOperatorNotReturningTheStructFailsTheBuild) {
  const auto larger =
      Operator::custom("larger", "__device__ double larger(vi a, vi b) { return a.value > b.value ? a.value : b.value; }");
  scan_by_key::Spec by_key = scan_by_key_argmax();
  by_key.op = larger;
  scan::ExclusiveSpec scan = scan_argmax();
  scan.op = larger;
  ASSERT_TRUE(by_key.validate());
  ASSERT_TRUE(scan.validate());
  const auto a = ScanByKey::build(by_key, 90);
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("double"), std::string::npos) << a.error().message;
  const auto b = ExclusiveScan::build(scan, 90);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("double"), std::string::npos) << b.error().message;
}

// The declared layout is checked against the compiled type: a wrong size or alignment
// fails the build (never a crash, never an entry), its error carrying NVRTC's log.
TEST(StructTypesBuild, AWrongLayoutFailsTheBuildWithNvrtcsLog) {
  for (const auto& [size, alignment, says] :
       {std::tuple{16u, 4u, "cccl_cache_size_check"}, std::tuple{12u, 2u, "cccl_cache_alignment_check"}}) {
    merge_sort::Spec spec = sort_key3();
    spec.key_type.layout.size = size;
    spec.key_type.layout.alignment = alignment;
    SCOPED_TRACE(summary(spec));
    ASSERT_TRUE(spec.validate());
    const auto& r = cached_build(spec, 90);
    ASSERT_FALSE(r);
    const std::string& log = r.error().message;
    EXPECT_NE(log.find(says), std::string::npos) << log;
    EXPECT_NE(log.find("T=key3"), std::string::npos) << log;  // NVRTC's log names the struct
  }
  select::Spec wrong = select_heavy();
  wrong.type.layout.size = 32;
  const auto& r = cached_build(wrong, 90);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("T=payload, Compiled=16ULL, Declared=32ULL"), std::string::npos)
      << r.error().message;
}

// The struct's definition is in the generated source, hence in the codegen digest.
TEST(StructTypesBuild, TheDefinitionIsInTheCodegenDigest) {
  merge_sort::Spec other = sort_key3();
  other.key_type.layout.definition = "struct key3 { int major; float minor; int tag; };";
  EXPECT_NE(MergeSort::codegen_digest(sort_key3()), MergeSort::codegen_digest(other));
}

}  // namespace
