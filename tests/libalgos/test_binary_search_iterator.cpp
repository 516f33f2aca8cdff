// Binary search over iterators without a GPU: an array spec encodes, keys and generates
// as before; the values searched for and the sorted range (values_in, data_in: the input
// kinds) and the output (the output kinds) take iterators, named in spec text, in every key, validated with errors
// naming the field; the transform kernel reads and writes them in place of the arrays;
// builds for sm_80 and sm_90 pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "binary_search/codegen.hpp"
#include "binary_search/dispatch.hpp"
#include "build_cache.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "iterator_spec_checks.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

binary_search::Spec search_of(ScalarType type, Iterator values_in, Iterator output = {},
                              bool upper = false) {
  binary_search::Spec s = upper ? binary_search::upper_bound(type) : binary_search::lower_bound(type);
  s.values_in = std::move(values_in);
  s.output = std::move(output);
  return s;
}

const Operator kHalve = Operator::custom("halve", "__device__ long long halve(long long i) { return i / 2; }");

// A search whose sorted range is an iterator (data_in).
binary_search::Spec over_range(Iterator data_in, Iterator values_in = {}) {
  binary_search::Spec s = search_of(ScalarType::int64, std::move(values_in));
  s.data_in = std::move(data_in);
  return s;
}

// a / d < b / d, d: int64 (the state).
const Operator kCoarseLess = Operator::custom(
    "coarse_less",
    "__device__ bool coarse_less(void* s, long long a, long long b) {\n"
    "  const long long d = *static_cast<long long*>(s);\n  return a / d < b / d;\n}",
    8, 8);

// Over a counting range, a stateful comparator: its state follows the range and count.
binary_search::Spec stateful_over_range() {
  binary_search::Spec s = over_range(Iterator::counting());
  s.comparator = kCoarseLess;
  return s;
}

std::vector<binary_search::Spec> specs() {
  const auto i64 = ScalarType::int64;
  return {
      search_of(i64, Iterator::counting()),                        // where each integer goes
      search_of(i64, Iterator::counting(), Iterator::reverse(), true),
      search_of(ScalarType::float32, {}, Iterator::discard()),
      search_of(ScalarType::float32, Iterator::reverse(),
                Iterator::permutation(ScalarType::none, ScalarType::int32)),
      search_of(i64, Iterator::transform(kHalve, i64, true),
                Iterator::transform(Operator::of(OpKind::negate), ScalarType::float64)),
      search_of(ScalarType::int32, Iterator::constant()),
      over_range(Iterator::counting()),  // 6: among the integers
      over_range(Iterator::transform(kHalve, ScalarType::int64, true), Iterator::counting()),
      over_range(Iterator::reverse()),
      stateful_over_range(),  // 9
  };
}

TEST(BinarySearchIterator, EveryKindRoundTripsAndKeysDiffer) {
  test_support::check_iterator_specs(specs(), {{"halve", kHalve.source}, {"coarse_less", kCoarseLess.source}});
  // An array spec's source and kernel name are as they were: no iterator struct.
  const auto plain = detail::BuildSteps<BinarySearch>::source(binary_search::Spec{});
  EXPECT_EQ(plain.source.find("cccl_cache_in0_t"), std::string::npos);
  EXPECT_EQ(plain.source.find("cccl_cache_out_t"), std::string::npos);
  EXPECT_EQ(plain.kernels[0].find("cccl_cache_in0_t"), std::string::npos) << plain.kernels[0];
}

TEST(BinarySearchIterator, WhatItCannotTakeIsRefusedByField) {
  const auto i32 = ScalarType::int32;
  test_support::expect_refused_by_field<binary_search::Spec>({
      {search_of(i32, Iterator::discard()), "'values_in'", ErrorCode::unsupported},
      {search_of(i32, {}, Iterator::counting()), "'output'", ErrorCode::unsupported},
      {search_of(ScalarType::float32, Iterator::counting(ScalarType::float32)), "'values_in'",
       ErrorCode::invalid_argument},
      // A zip's items are structs: not over scalar items.
      {search_of(i32, Iterator::zip({Iterator::array(i32)})), "'values_in'", ErrorCode::invalid_argument},
      {over_range(Iterator::discard()), "'data_in'", ErrorCode::unsupported},
      {over_range(Iterator::counting(ScalarType::float32)), "'data_in'", ErrorCode::invalid_argument},
  });
}

TEST(BinarySearchIterator, TheKernelReadsAndWritesTheIterators) {
  const auto gen = detail::BuildSteps<BinarySearch>::source(
      search_of(ScalarType::int64, Iterator::counting(), Iterator::reverse()));
  ASSERT_EQ(gen.kernels.size(), 1u);
  EXPECT_NE(gen.kernels[0].find("cccl_cache_out_t, cccl_cache_in0_t>"), std::string::npos)
      << gen.kernels[0];
  EXPECT_NE(gen.source.find("struct cccl_cache_in0_t"), std::string::npos);
  EXPECT_NE(gen.source.find("struct cccl_cache_out_t"), std::string::npos);
  // Only the values: the output stays the array.
  const auto in_only = detail::BuildSteps<BinarySearch>::source(
      search_of(ScalarType::int64, Iterator::counting()));
  EXPECT_NE(in_only.kernels[0].find("cccl_cache_in0_t>"), std::string::npos) << in_only.kernels[0];
  EXPECT_EQ(in_only.source.find("struct cccl_cache_out_t"), std::string::npos);
}

// A range iterator: the search operator is the generated search over it, its bytes
// first, then the count and the comparator at the offsets the host packs.
TEST(BinarySearchIterator, ARangeIteratorLeadsTheGeneratedSearchOperator) {
  const auto gen = detail::BuildSteps<BinarySearch>::source(over_range(Iterator::counting()));
  EXPECT_NE(gen.source.find("struct cccl_cache_data_t"), std::string::npos);
  EXPECT_NE(gen.source.find("union alignas(16) range_t { cccl_cache_data_t first; unsigned char bytes[" +
                            std::to_string(binary_search::detail::kRangeBytes) + "]; } range;"),
            std::string::npos)
      << gen.source;
  EXPECT_NE(gen.source.find("alignas(16) unsigned long long num_items;\n  alignas(16) cccl_cache_compare op;"),
            std::string::npos);
  // CUB's search functor over the iterator, not over a pointer.
  EXPECT_EQ(gen.source.find("binary_search_transform_op_t<const "), std::string::npos);
  EXPECT_NE(gen.source.find("binary_search_transform_op_t<cccl_cache_data_t, unsigned long long,\n"
                            "        cccl_cache_compare, cub::detail::find::lower_bound>{range.first"),
            std::string::npos)
      << gen.source;
  // The upper bound searches by CUB's upper_bound mode.
  auto upper = over_range(Iterator::counting());
  upper.upper = true;
  EXPECT_NE(detail::BuildSteps<BinarySearch>::source(upper).source.find(
                "cccl_cache_compare, cub::detail::find::upper_bound>{range.first"),
            std::string::npos);
  // A transform range's operator is defined once, beside a values iterator using it too.
  const auto both = detail::BuildSteps<BinarySearch>::source(
      over_range(Iterator::transform(kHalve, ScalarType::int64, true),
                 Iterator::transform(kHalve, ScalarType::int64, true)));
  const auto first = both.source.find("long long halve(");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(both.source.find("long long halve(", first + 1), std::string::npos);
}

TEST(BinarySearchIterator, BuildsForSm80AndSm90) {
  test_support::expect_builds_for_sm80_and_sm90(specs(), {1u, 4u, 7u, 9u}, 1);
}

}  // namespace
