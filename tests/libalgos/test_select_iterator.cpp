// select over iterators without a GPU: an array spec encodes, keys and generates as
// before; the input and the output take iterators (scalars: the input and output kinds;
// structs: zips of their fields), named in spec text, in every key, validated with errors
// naming the field; the sweep kernel and its policy selector read and write them in
// place of the arrays; builds for sm_80 and sm_90 pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "iterator_spec_checks.hpp"
#include "iterator_specs.hpp"
#include "select/codegen.hpp"
#include "select_iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

using test_support::select_of;
const Operator kThird = test_support::third_index();
const ElementType kVi = test_support::vi64_type();
const Operator kPositive = test_support::positive_value();

std::vector<select::Spec> specs() {
  const auto i64 = ScalarType::int64;
  return {
      select_of(i64, kThird, Iterator::counting()),  // even indices
      select_of(ScalarType::float32, Operator::of(OpKind::identity), {},
                Iterator::discard()),  // a count
      select_of(ScalarType::float32, Operator::of(OpKind::identity), Iterator::reverse(),
                Iterator::permutation(ScalarType::none, ScalarType::int32)),
      select_of(i64, kThird,
                Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true),
                Iterator::reverse()),
      select_of(kVi, kPositive, test_support::values_with_positions()),
      select_of(kVi, kPositive, test_support::values_with_positions(),
                Iterator::zip({Iterator::discard(), Iterator::array(i64)})),  // positions only
  };
}

TEST(SelectIterator, EveryKindRoundTripsAndKeysDiffer) {
  test_support::check_iterator_specs(specs(),
                                     {{"third", kThird.source}, {"positive", kPositive.source}},
                                     {{"vi64", kVi.layout.definition}});
  // The key of an array spec is as it was: its generated source and kernel names do not
  // name iterators.
  const auto plain = detail::BuildSteps<Select>::source(select::Spec{});
  EXPECT_EQ(plain.source.find("struct cccl_cache_in_t"), std::string::npos);
  EXPECT_NE(plain.kernels[1].find("DeviceSelectSweepKernel<cccl_cache_selector, "
                                  "::cuda::std::int32_t*, cub::NullType*, ::cuda::std::int32_t*, "),
            std::string::npos)
      << plain.kernels[1];
}

TEST(SelectIterator, WhatSelectCannotTakeIsRefusedByField) {
  test_support::expect_refused_by_field<select::Spec>({
      {select_of(ScalarType::int32, Operator::of(OpKind::identity), Iterator::discard()), "'input'",
       ErrorCode::unsupported},
      {select_of(ScalarType::int32, Operator::of(OpKind::identity), {}, Iterator::counting()),
       "'output'", ErrorCode::unsupported},
      {select_of(ScalarType::float32, Operator::of(OpKind::identity),
                 Iterator::counting(ScalarType::float32)),
       "'input'", ErrorCode::invalid_argument},
      {select_of(ScalarType::int32, Operator::of(OpKind::identity),
                 Iterator::zip({Iterator::array(ScalarType::int32)})),
       "'input'", ErrorCode::invalid_argument},
      {select_of(kVi, kPositive, Iterator::counting()), "'input'", ErrorCode::unsupported},
      {select_of(kVi, kPositive, {}, Iterator::reverse()), "'output'", ErrorCode::unsupported},
  });
}

TEST(SelectIterator, TheSweepKernelAndItsSelectorTakeTheIterators) {
  const auto gen = detail::BuildSteps<Select>::source(
      select_of(ScalarType::int64, kThird, Iterator::counting(), Iterator::reverse()));
  ASSERT_EQ(gen.kernels.size(), 2u);
  EXPECT_NE(gen.kernels[1].find("<cccl_cache_selector, cccl_cache_in_t, cub::NullType*, "
                                "cccl_cache_out_t, "),
            std::string::npos)
      << gen.kernels[1];
  EXPECT_NE(gen.source.find("policy_selector_from_types<\n    cccl_cache_in_t, cub::NullType*, "
                            "cccl_cache_out_t, "),
            std::string::npos);
  EXPECT_NE(gen.source.find(
                "cub::SelectImpl::Select, cccl_cache_in_t, cub::NullType*, cccl_cache_out_t,"),
            std::string::npos);
}

TEST(SelectIterator, BuildsForSm80AndSm90) {
  test_support::expect_builds_for_sm80_and_sm90(specs(), {0u, 1u, 5u}, 2);
}

}  // namespace
