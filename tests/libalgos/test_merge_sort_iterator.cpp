// Merge sort over input iterators without a GPU: an array spec encodes, keys and
// generates as before; the keys and values read take the input kinds, named in spec
// text, in every key, validated with errors naming the field; the block-sort and merge
// kernels then take both inputs as iterators (an array as an array iterator), the
// partition kernel, which reads the outputs, is unchanged; builds for sm_80 and sm_90
// pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "iterator_spec_checks.hpp"
#include "merge_sort/codegen.hpp"
#include "merge_sort_iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

using test_support::sort_of;

std::vector<merge_sort::Spec> specs() { return test_support::merge_sort_iterator_specs(); }

TEST(MergeSortIterator, EveryKindRoundTripsAndKeysDiffer) {
  test_support::check_iterator_specs(specs(), {});
  // The key of an array spec is as it was: its generated source and kernel names do not
  // name iterators.
  const auto plain = detail::BuildSteps<MergeSort>::source(merge_sort::Spec{});
  EXPECT_EQ(plain.source.find("cccl_cache_keys_in_t"), std::string::npos);
  EXPECT_NE(plain.source.find("    cccl_cache_key_t*, cccl_cache_value_t*, cccl_cache_key_t*, "
                              "cccl_cache_value_t*,\n"),
            std::string::npos);
  EXPECT_NE(plain.kernels[0].find("DeviceMergeSortBlockSortKernel<cccl_cache_selector, float*, "
                                  "cub::NullType*, float*, cub::NullType*, "),
            std::string::npos)
      << plain.kernels[0];
}

TEST(MergeSortIterator, WhatItCannotTakeIsRefusedByField) {
  const auto i32 = ScalarType::int32;
  merge_sort::Spec on_struct = sort_of(i32, i32, {}, Iterator::counting());
  on_struct.key_type = ElementType::structure("pair", "struct pair { long long a, b; };", 16, 8);
  on_struct.comparator = Operator::custom(
      "pair_less", "__device__ bool pair_less(pair x, pair y) { return x.a < y.a; }");
  test_support::expect_refused_by_field<merge_sort::Spec>({
      {sort_of(i32, i32, Iterator::discard()), "'keys_in'", ErrorCode::unsupported},
      {sort_of(i32, i32, {}, Iterator::discard()), "'values_in'", ErrorCode::unsupported},
      {sort_of(i32, ScalarType::none, {}, Iterator::counting()), "'values_in'",
       ErrorCode::invalid_argument},
      {sort_of(ScalarType::float32, i32, Iterator::counting(ScalarType::float32)), "'keys_in'",
       ErrorCode::invalid_argument},
      {sort_of(i32, i32, Iterator::zip({Iterator::array(i32)})), "'keys_in'",
       ErrorCode::unsupported},
      {on_struct, "'values_in'", ErrorCode::unsupported},
  });
}

TEST(MergeSortIterator, TheKernelsThatReadTheInputsTakeIterators) {
  // One iterator makes both inputs iterators: the key array becomes an array iterator.
  const auto gen = detail::BuildSteps<MergeSort>::source(
      sort_of(ScalarType::float32, ScalarType::int64, {}, Iterator::counting()));
  ASSERT_EQ(gen.kernels.size(), 3u);
  const std::string ins = "<cccl_cache_selector, cccl_cache_keys_in_t, cccl_cache_values_in_t, "
                          "float*, long*, ";
  EXPECT_NE(gen.kernels[0].find(ins), std::string::npos) << gen.kernels[0];
  EXPECT_NE(gen.kernels[2].find(ins), std::string::npos) << gen.kernels[2];
  EXPECT_EQ(gen.kernels[1].find("cccl_cache_keys_in_t"), std::string::npos) << gen.kernels[1];
  EXPECT_NE(gen.source.find("    cccl_cache_keys_in_t, cccl_cache_values_in_t, cccl_cache_key_t*"),
            std::string::npos)
      << "the vsmem helper's";
  for (const char* name : {"struct cccl_cache_keys_in_t", "struct cccl_cache_values_in_t"})
    EXPECT_NE(gen.source.find(name), std::string::npos) << name;
  // Keys only: the values stay NullType*.
  const auto keys_only =
      detail::BuildSteps<MergeSort>::source(sort_of(ScalarType::int32, ScalarType::none,
                                                    Iterator::reverse()));
  EXPECT_NE(keys_only.kernels[0].find("<cccl_cache_selector, cccl_cache_keys_in_t, "
                                      "cub::NullType*, "),
            std::string::npos)
      << keys_only.kernels[0];
  EXPECT_EQ(keys_only.source.find("cccl_cache_values_in_t"), std::string::npos);
}

TEST(MergeSortIterator, BuildsForSm80AndSm90) {
  test_support::expect_builds_for_sm80_and_sm90(specs(), {0u, 3u}, 3);
}

}  // namespace
