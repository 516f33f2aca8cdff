// unique_by_key over iterators without a GPU: an array spec encodes, keys and generates
// as before; the keys and values read (the input kinds) and written (the output kinds)
// take iterators, named in spec text, in every key, validated with errors naming the
// field; the sweep kernel then takes all four as iterators (an array as an array
// iterator); builds for sm_80 and sm_90 pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "iterator_spec_checks.hpp"
#include "unique_by_key/codegen.hpp"
#include "unique_by_key_iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

using test_support::unique_of;

std::vector<unique_by_key::Spec> specs() { return test_support::unique_iterator_specs(); }

TEST(UniqueByKeyIterator, EveryKindRoundTripsAndKeysDiffer) {
  test_support::check_iterator_specs(specs(), {{"halve", test_support::halve().source}});
  // The key of an array spec is as it was: its generated source and kernel names do not
  // name iterators.
  const auto plain = detail::BuildSteps<UniqueByKey>::source(unique_by_key::Spec{});
  EXPECT_EQ(plain.source.find("struct cccl_cache_keys_in_t"), std::string::npos);
  EXPECT_NE(plain.source.find("cccl_cache_key_t*, cccl_cache_value_t*, cccl_cache_key_t*, "
                              "cccl_cache_value_t*,"),
            std::string::npos);
  EXPECT_NE(plain.kernels[1].find("DeviceUniqueByKeySweepKernel<cccl_cache_selector, "
                                  "::cuda::std::int32_t*, ::cuda::std::int32_t*, "
                                  "::cuda::std::int32_t*, ::cuda::std::int32_t*, "),
            std::string::npos)
      << plain.kernels[1];
}

TEST(UniqueByKeyIterator, WhatItCannotTakeIsRefusedByField) {
  const auto i32 = ScalarType::int32;
  test_support::expect_refused_by_field<unique_by_key::Spec>({
      {unique_of(i32, i32, Iterator::discard()), "'keys_in'", ErrorCode::unsupported},
      {unique_of(i32, i32, {}, Iterator::discard()), "'values_in'", ErrorCode::unsupported},
      {unique_of(i32, i32, {}, {}, Iterator::counting()), "'keys_out'", ErrorCode::unsupported},
      {unique_of(i32, i32, {}, {}, {}, Iterator::constant()), "'values_out'",
       ErrorCode::unsupported},
      {unique_of(ScalarType::float32, i32, Iterator::counting(ScalarType::float32)), "'keys_in'",
       ErrorCode::invalid_argument},
      // A zip's items are structs: not over scalar keys.
      {unique_of(i32, i32, Iterator::zip({Iterator::array(i32)})), "'keys_in'",
       ErrorCode::invalid_argument},
  });
}

TEST(UniqueByKeyIterator, TheSweepKernelTakesAllFourAsIterators) {
  // One iterator makes every argument one: the arrays become array iterators.
  const auto gen = detail::BuildSteps<UniqueByKey>::source(
      unique_of(ScalarType::int32, ScalarType::int64, {}, Iterator::counting()));
  ASSERT_EQ(gen.kernels.size(), 2u);
  const std::string args =
      "cccl_cache_keys_in_t, cccl_cache_values_in_t, cccl_cache_keys_out_t, "
      "cccl_cache_values_out_t";
  EXPECT_NE(gen.kernels[1].find("<cccl_cache_selector, " + args + ", "), std::string::npos)
      << gen.kernels[1];
  EXPECT_NE(gen.source.find("    " + args + ",\n"), std::string::npos) << "the vsmem helper's";
  for (const char* name : {"struct cccl_cache_keys_in_t", "struct cccl_cache_values_in_t",
                           "struct cccl_cache_keys_out_t", "struct cccl_cache_values_out_t"})
    EXPECT_NE(gen.source.find(name), std::string::npos) << name;
}

TEST(UniqueByKeyIterator, BuildsForSm80AndSm90) {
  test_support::expect_builds_for_sm80_and_sm90(specs(), {0u, 2u}, 2);
}

}  // namespace
