// histogram_even over iterators without a GPU: an array spec encodes, keys and generates
// as before; the samples (`samples`: the input kinds) take an iterator, named in spec
// text, in every key, validated with errors naming the field; the sweep kernels read it
// in place of the array; builds for sm_80 and sm_90 pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "histogram_even/codegen.hpp"
#include "histogram_reference.hpp"
#include "iterator_spec_checks.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

using test_support::histogram_of;

std::vector<histogram_even::Spec> specs() {
  const auto i32 = ScalarType::int32;
  const auto f32 = ScalarType::float32;
  return {
      histogram_of(i32, Iterator::counting()),  // the bins of consecutive integers
      histogram_of(f32, Iterator::transform(test_support::square_f(), f32)),  // of squares of an array
      histogram_of(ScalarType::uint8, Iterator::reverse()),         // CUB's byte-sample path
      histogram_of(f32, Iterator::permutation(ScalarType::none, ScalarType::int64),
                   ScalarType::int64),
      histogram_of(ScalarType::int64, Iterator::constant()),
  };
}

TEST(HistogramEvenIterator, EveryKindRoundTripsAndKeysDiffer) {
  test_support::check_iterator_specs(specs(), {{"square_f", test_support::square_f().source}});
  // An array spec's source and kernel names are as they were: no iterator struct.
  const auto plain = detail::BuildSteps<HistogramEven>::source(histogram_even::Spec{});
  EXPECT_EQ(plain.source.find("cccl_cache_in_t"), std::string::npos);
  for (const std::string& k : plain.kernels)
    EXPECT_EQ(k.find("cccl_cache_in_t"), std::string::npos) << k;
  EXPECT_NE(plain.kernels[1].find("const ::cuda::std::int32_t*"), std::string::npos) << plain.kernels[1];
}

TEST(HistogramEvenIterator, WhatItCannotTakeIsRefusedByField) {
  const auto i32 = ScalarType::int32;
  test_support::expect_refused_by_field<histogram_even::Spec>({
      {histogram_of(i32, Iterator::discard()), "'samples'", ErrorCode::unsupported},
      {histogram_of(ScalarType::float32, Iterator::counting(ScalarType::float32)), "'samples'",
       ErrorCode::invalid_argument},
      {histogram_of(i32, Iterator::zip({Iterator::array(i32)})), "'samples'",
       ErrorCode::unsupported},
  });
}

TEST(HistogramEvenIterator, BothSweepKernelsReadTheIterator) {
  const auto gen =
      detail::BuildSteps<HistogramEven>::source(histogram_of(ScalarType::int32, Iterator::counting()));
  ASSERT_EQ(gen.kernels.size(), 3u);
  EXPECT_NE(gen.source.find("struct cccl_cache_in_t"), std::string::npos);
  EXPECT_EQ(gen.kernels[0].find("cccl_cache_in_t"), std::string::npos) << gen.kernels[0];
  for (std::size_t k : {1u, 2u}) {
    EXPECT_NE(gen.kernels[k].find(", 1, 1, cccl_cache_in_t, "), std::string::npos) << gen.kernels[k];
    EXPECT_EQ(gen.kernels[k].find("const ::cuda::std::int32_t*"), std::string::npos) << gen.kernels[k];
  }
}

TEST(HistogramEvenIterator, BuildsForSm80AndSm90) {
  test_support::expect_builds_for_sm80_and_sm90(specs(), {0u, 1u}, 3);
}

}  // namespace
