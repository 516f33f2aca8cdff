// three-way partition over iterators without a GPU: an array spec encodes, keys and
// generates as before; the input and each part's output take iterators (the input and
// output kinds), named in spec text, in every key, validated with errors naming the
// field; the partition kernel then takes all four as iterators (an array as an array
// iterator); builds for sm_80 and sm_90 pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "iterator_spec_checks.hpp"
#include "three_way_partition/codegen.hpp"
#include "three_way_partition_iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

using test_support::partition_of;
const Operator kId = Operator::of(OpKind::identity);
const Operator kBig = test_support::above_1000();

std::vector<three_way_partition::Spec> specs() {
  const auto i64 = ScalarType::int64;
  return {
      partition_of(i64, kBig, Iterator::counting()),  // the indices of each part
      partition_of(i64, kBig, Iterator::counting(), {}, Iterator::reverse(), Iterator::discard()),
      partition_of(ScalarType::float32, kId, {}, {}, {}, Iterator::discard()),  // the rest unwritten
      partition_of(ScalarType::float32, kId, Iterator::reverse(),
                   Iterator::permutation(ScalarType::none, ScalarType::int32)),
      partition_of(i64, kBig,
                   Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true), {},
                   Iterator::transform(Operator::of(OpKind::negate), ScalarType::float64)),
      partition_of(ScalarType::int32, kId, Iterator::constant()),
  };
}

TEST(ThreeWayPartitionIterator, EveryKindRoundTripsAndKeysDiffer) {
  test_support::check_iterator_specs(specs(), {{"big", kBig.source}});
  // The key of an array spec is as it was: its generated source and kernel names do not
  // name iterators.
  const auto plain = detail::BuildSteps<ThreeWayPartition>::source(three_way_partition::Spec{});
  EXPECT_EQ(plain.source.find("struct cccl_cache_in_t"), std::string::npos);
  EXPECT_NE(plain.kernels[1].find("DeviceThreeWayPartitionKernel<cccl_cache_selector, "
                                  "::cuda::std::int32_t*, ::cuda::std::int32_t*, "
                                  "::cuda::std::int32_t*, ::cuda::std::int32_t*, "),
            std::string::npos)
      << plain.kernels[1];
}

TEST(ThreeWayPartitionIterator, WhatItCannotTakeIsRefusedByField) {
  const auto i32 = ScalarType::int32;
  test_support::expect_refused_by_field<three_way_partition::Spec>({
      {partition_of(i32, kId, Iterator::discard()), "'input'", ErrorCode::unsupported},
      {partition_of(i32, kId, {}, Iterator::counting()), "'first_output'", ErrorCode::unsupported},
      {partition_of(i32, kId, {}, {}, Iterator::constant()), "'second_output'",
       ErrorCode::unsupported},
      {partition_of(ScalarType::float32, kId, Iterator::counting(ScalarType::float32)), "'input'",
       ErrorCode::invalid_argument},
      // A zip's items are structs: not over scalar items.
      {partition_of(i32, kId, Iterator::zip({Iterator::array(i32)})), "'input'",
       ErrorCode::invalid_argument},
      {partition_of(i32, kId, {}, {}, {}, Iterator::zip({Iterator::array(i32)})),
       "'unselected_output'", ErrorCode::invalid_argument},
  });
}

TEST(ThreeWayPartitionIterator, ThePartitionKernelTakesAllFourAsIterators) {
  // One iterator makes every argument one: the arrays become array iterators.
  const auto gen = detail::BuildSteps<ThreeWayPartition>::source(
      partition_of(ScalarType::int64, kBig, Iterator::counting(), {}, {}, Iterator::discard()));
  ASSERT_EQ(gen.kernels.size(), 2u);
  EXPECT_NE(gen.kernels[1].find("<cccl_cache_selector, cccl_cache_in_t, cccl_cache_first_out_t, "
                                "cccl_cache_second_out_t, cccl_cache_unselected_out_t, "),
            std::string::npos)
      << gen.kernels[1];
  for (const char* name : {"struct cccl_cache_in_t", "struct cccl_cache_first_out_t",
                           "struct cccl_cache_second_out_t", "struct cccl_cache_unselected_out_t"})
    EXPECT_NE(gen.source.find(name), std::string::npos) << name;
  // The predicate's source once, though a transform iterator could name it too.
  const auto twice = detail::BuildSteps<ThreeWayPartition>::source(
      partition_of(ScalarType::int64, kBig, Iterator::transform(kBig, ScalarType::int64)));
  const std::string marker = "// user operator big";
  const auto at = twice.source.find(marker);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(twice.source.find(marker, at + 1), std::string::npos);
}

TEST(ThreeWayPartitionIterator, BuildsForSm80AndSm90) {
  test_support::expect_builds_for_sm80_and_sm90(specs(), {1u, 3u}, 2);
}

}  // namespace
