// scan_by_key over iterators without a GPU: an array spec encodes, keys and generates as
// before; the keys and values read (the input kinds) and the scan written (the output
// kinds) take iterators, named in spec text, in every key, validated with errors naming
// the field; both kernels then take them as iterators (an array as an array iterator);
// builds for sm_80 and sm_90 pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "iterator_spec_checks.hpp"
#include "scan_by_key/codegen.hpp"
#include "scan_by_key_iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

using test_support::scan_by_key_of;

std::vector<scan_by_key::Spec> specs() { return test_support::scan_by_key_iterator_specs(); }

TEST(ScanByKeyIterator, EveryKindRoundTripsAndKeysDiffer) {
  test_support::check_iterator_specs(specs(), {{"halve", test_support::halve().source}});
  // The key of an array spec is as it was: its generated source and kernel names do not
  // name iterators.
  const auto plain = detail::BuildSteps<ScanByKey>::source(scan_by_key::Spec{});
  EXPECT_EQ(plain.source.find("cccl_cache_keys_in_t"), std::string::npos);
  EXPECT_NE(plain.kernels[0].find("DeviceScanByKeyInitKernel<cub::ReduceByKeyScanTileState<"
                                  "cccl_cache_accum_t, int>, ::cuda::std::int32_t*, "),
            std::string::npos)
      << plain.kernels[0];
  EXPECT_NE(plain.kernels[1].find("DeviceScanByKeyKernel<cccl_cache_selector, "
                                  "::cuda::std::int32_t*, ::cuda::std::int32_t*, "
                                  "::cuda::std::int32_t*, "),
            std::string::npos)
      << plain.kernels[1];
}

TEST(ScanByKeyIterator, WhatItCannotTakeIsRefusedByField) {
  const auto i32 = ScalarType::int32;
  test_support::expect_refused_by_field<scan_by_key::Spec>({
      {scan_by_key_of(i32, i32, Iterator::discard()), "'keys_in'", ErrorCode::unsupported},
      {scan_by_key_of(i32, i32, {}, Iterator::discard()), "'values_in'", ErrorCode::unsupported},
      {scan_by_key_of(i32, i32, {}, {}, Iterator::counting()), "'values_out'",
       ErrorCode::unsupported},
      {scan_by_key_of(i32, i32, {}, {}, Iterator::shuffle()), "'values_out'",
       ErrorCode::unsupported},
      {scan_by_key_of(ScalarType::float32, i32, Iterator::counting(ScalarType::float32)),
       "'keys_in'", ErrorCode::invalid_argument},
      // A zip reads structs: over scalar keys it is a wrong element type.
      {scan_by_key_of(i32, i32, Iterator::zip({Iterator::array(i32)})), "'keys_in'",
       ErrorCode::invalid_argument},
  });
}

TEST(ScanByKeyIterator, BothKernelsTakeAllThreeAsIterators) {
  // One iterator makes every argument one: the arrays become array iterators.
  const auto gen = detail::BuildSteps<ScanByKey>::source(
      scan_by_key_of(ScalarType::int32, ScalarType::int32, {}, Iterator::constant()));
  ASSERT_EQ(gen.kernels.size(), 2u);
  EXPECT_NE(gen.kernels[0].find("ReduceByKeyScanTileState<cccl_cache_accum_t, int>, "
                                "cccl_cache_keys_in_t, "),
            std::string::npos)
      << gen.kernels[0];
  EXPECT_NE(gen.kernels[1].find("<cccl_cache_selector, cccl_cache_keys_in_t, "
                                "cccl_cache_values_in_t, cccl_cache_values_out_t, "),
            std::string::npos)
      << gen.kernels[1];
  for (const char* name : {"struct cccl_cache_keys_in_t", "struct cccl_cache_values_in_t",
                           "struct cccl_cache_values_out_t"})
    EXPECT_NE(gen.source.find(name), std::string::npos) << name;
}

TEST(ScanByKeyIterator, BuildsForSm80AndSm90) {
  test_support::expect_builds_for_sm80_and_sm90(specs(), {1u, 2u}, 2);
}

}  // namespace
