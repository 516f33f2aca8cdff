// NVRTC builds for sm_80 and sm_90 of reduce over every input iterator kind, and of the
// scans over a few, and of both into output iterators and from and into zips: the generated
// iterator structs compile as CUB's kernels use them, and the record passes the algorithm's checks.
#include <gtest/gtest.h>

#include "build_cache.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "iterator_specs.hpp"
#include "nested_iterator_specs.hpp"
#include "stateful_iterator_specs.hpp"
#include "segmented_iterator_specs.hpp"
#include "zip_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

reduce::Spec reduce_over(ScalarType type, Iterator input) { return over<reduce::Spec>(type, std::move(input)); }

// `spec` is valid and builds for sm_`cc` with `kernels` kernels.
template <class Spec>
void build(const Spec& spec, std::uint32_t cc, std::size_t kernels) {
  SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
  ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
  const auto& r = cached_build(spec, cc);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->result.record.kernels.size(), kernels);
}

TEST(IteratorBuild, ReduceOverEveryInputKindBuildsForSm80AndSm90) {
  const Operator square =
      Operator::custom("square", "__device__ float square(float x) { return x * x; }");
  const reduce::Spec specs[] = {
      reduce_over(ScalarType::float32, Iterator::transform(square)),
      reduce_over(ScalarType::int64, Iterator::counting(ScalarType::int32)),
      reduce_over(ScalarType::float64, Iterator::constant()),
      reduce_over(ScalarType::uint8, Iterator::reverse()),
      reduce_over(ScalarType::float32,
                  Iterator::permutation(ScalarType::float16, ScalarType::int64)),
      reduce_over(ScalarType::int32,
                  Iterator::transform(Operator::of(OpKind::bit_not), ScalarType::int16, true)),
      reduce_over(ScalarType::int64, Iterator::shuffle()),
      reduce_over(ScalarType::float32, Iterator::cache_modified(CacheLoad::cs)),
  };
  for (const auto& spec : specs) {
    for (const std::uint32_t cc : {80u, 90u}) {
      SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
      ASSERT_TRUE(spec.validate());
      const auto& r = cached_build(spec, cc);
      ASSERT_TRUE(r) << r.error().describe();
      EXPECT_EQ(r->result.record.cc, cc);
      EXPECT_FALSE(r->result.record.cubin.empty());
    }
  }
}

template <class Spec>
void check_scan_build(const Spec& spec, std::uint32_t cc) {
  SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
  ASSERT_TRUE(spec.validate());
  const auto& r = cached_build(spec, cc);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->result.record.cc, cc);
  EXPECT_EQ(r->result.record.kernels.size(), 2u);
  // CUB tunes a scan of a non-contiguous input as decoupled look-back on every CC (an
  // array's is look-ahead from 10.0).
  EXPECT_EQ(r->result.policy.algorithm, 0u);
}

TEST(IteratorBuild, ScansOverInputIteratorsBuild) {
  const Operator square =
      Operator::custom("square", "__device__ float square(float x) { return x * x; }");
  const auto sum_of_squares = over<scan::InclusiveSpec>(ScalarType::float32,
                                                             Iterator::transform(square));
  for (const std::uint32_t cc : {80u, 90u, 100u}) check_scan_build(sum_of_squares, cc);
  check_scan_build(over<scan::ExclusiveSpec>(ScalarType::int64,
                                                  Iterator::counting(ScalarType::int32)),
                   90);
  check_scan_build(over<scan::InclusiveSpec>(
                       ScalarType::float64,
                       Iterator::permutation(ScalarType::none, ScalarType::int64), true),
                   80);
}

// Output iterators: a norm (the square root of a sum of squares, read and written through
// transform iterators), a scan written last first and one whose output is discarded.
TEST(IteratorBuild, ReduceAndScansIntoOutputIteratorsBuild) {
  const Operator square =
      Operator::custom("square", "__device__ float square(float x) { return x * x; }");
  const Operator root = Operator::custom("root", "__device__ float root(float x) { return sqrtf(x); }");
  auto norm = reduce_over(ScalarType::float32, Iterator::transform(square));
  norm.output = Iterator::transform(root, ScalarType::float64);
  for (const std::uint32_t cc : {80u, 90u}) {
    SCOPED_TRACE("sm_" + std::to_string(cc));
    ASSERT_TRUE(norm.validate()) << norm.validate().error().describe();
    const auto& r = cached_build(norm, cc);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.record.kernels.size(), 3u);
  }
  auto reversed = over<scan::InclusiveSpec>(ScalarType::int32, Iterator{});
  reversed.output = Iterator::reverse();
  auto discarded = over<scan::ExclusiveSpec>(ScalarType::float64, Iterator::counting(ScalarType::int32));
  discarded.output = Iterator::discard();
  auto build_scan = [](const auto& spec, std::uint32_t cc) {
    SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    const auto& r = cached_build(spec, cc);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.record.kernels.size(), 2u);
  };
  build_scan(reversed, 90);
  build_scan(reversed, 100);
  build_scan(discarded, 80);
}

// Zips: an argmax reporting where (a 16-byte struct from a value array and a counting
// iterator), a running argmax written into two arrays; a struct whose fields are not the
// components' types fails the build with NVRTC's log naming the component.
TEST(IteratorBuild, ZipsBuildAndAStructOfOtherFieldsIsNamed) {
  const auto argmax = zip_argmax64();
  for (const std::uint32_t cc : {80u, 90u}) {
    SCOPED_TRACE("sm_" + std::to_string(cc));
    ASSERT_TRUE(argmax.validate()) << argmax.validate().error().describe();
    const auto& r = cached_build(argmax, cc);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.record.kernels.size(), 3u);
  }
  const auto running = zip_running_argmax();
  ASSERT_TRUE(running.validate()) << running.validate().error().describe();
  const auto& r = cached_build(running, 90);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->result.policy.algorithm, 0u) << "look-back, as for any iterator input";

  auto narrow = argmax;  // counting(int32) into a long long field
  narrow.input =
      Iterator::zip({Iterator::array(ScalarType::float32), Iterator::counting(ScalarType::int32)});
  ASSERT_TRUE(narrow.validate());
  const auto& bad = cached_build(narrow, 90);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, cccl_cache::ErrorCode::compile) << bad.error().describe();
  EXPECT_NE(bad.error().message.find("zip component 1 is int32 but field 1 of vi64 is not"),
            std::string::npos)
      << bad.error().message;
}

// Segmented reduce over iterators: fixed-size segments from computed offsets (all four
// arguments iterators, the input an array iterator) and a counting input written last
// first.
TEST(IteratorBuild, SegmentedReduceOverIteratorsBuilds) {
  for (const auto& spec : {fixed_size_sums(), counting_sums_reversed()}) {
    SCOPED_TRACE(summary(spec));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    const auto& r = cached_build(spec, 90);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.record.kernels.size(), 1u);
  }
}

// Nested iterators: a dot product (a transform over a zip of two), a three-argument operator
// over a zip, a gather by a shuffle, a permutation of counts by computed indices, a
// transform over a permutation, a scan scattered by a shuffle and two reverses over
// iterators: the generated structs compile as CUB's kernels use them (sm_90; three of
// them also sm_80).
TEST(IteratorBuild, NestedIteratorsBuild) {
  for (const std::uint32_t cc : {80u, 90u}) {
    build(dot_product(), cc, 3);
    build(shuffled_running_sum(), cc, 2);
  }
  build(strided_counts(), 90, 3);
  build(negated_gather(), 90, 3);
  build(running_madd(), 90, 2);
  build(scattered_running_sum(), 90, 2);
  build(reversed_counts(), 80, 2);
  build(reversed_gather(), 90, 2);
}

// Transform iterators with stateful operators (over counting, over a zip, as an output):
// the structs holding the operator compile, their layout asserted, as CUB's kernels use
// them (sm_90; one also sm_80).
TEST(IteratorBuild, StatefulTransformIteratorsBuild) {
  build(affine_sum(), 80, 3);
  build(affine_sum(), 90, 3);
  build(weighted_running_sum(), 90, 2);
  build(scaled_running_sum(), 90, 2);
}

// Struct items read as a custom transform's results (over a zip, over a counting
// iterator): the operator's struct cast to the items' (sm_90; one also sm_80).
TEST(IteratorBuild, TransformsYieldingStructItemsBuild) {
  build(transform_argmax64(), 80, 3);
  build(transform_argmax64(), 90, 3);
  build(scored_running_argmax(), 90, 2);
}

}  // namespace
