// Segmented sort over offset iterators without a GPU: an array spec encodes, keys and
// generates as before; the begin and end offsets take the input kinds, named in spec
// text, in every key, validated with errors naming the field; both offsets then are
// iterators in every kernel and in the partition's segment selectors, whose device layout
// the build asserts equal to the host's packing (selector_layout); builds for sm_80 and
// sm_90 pass the records' checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "iterator_spec_checks.hpp"
#include "segmented_iterator_specs.hpp"
#include "segmented_sort/codegen.hpp"
#include "segmented_sort/dispatch.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using namespace test_support;

namespace {

using SS = segmented_sort::Spec;
using Steps = detail::BuildSteps<SegmentedSort>;

std::vector<SS> specs() {
  const auto i64 = ScalarType::int64;
  return {sorted_rows(), growing_segments(), unit_sort_segments(),
          segmented_sort_over(ScalarType::float32, ScalarType::none, false, {},
                              Iterator::counting(i64)),
          segmented_sort_over(ScalarType::float32, ScalarType::none, false,
                              Iterator::permutation(i64, ScalarType::int32), {}),
          segmented_sort_over(ScalarType::float32, ScalarType::none, false, Iterator::reverse(),
                              Iterator::reverse())};
}

TEST(SegmentedSortIterator, EveryKindRoundTripsAndKeysDiffer) {
  EXPECT_FALSE(SS{}.iterators());
  EXPECT_EQ(spec_text(SS{}), "segmented_sort keys=float32 values=none descending=false offset=int32");
  for (const SS& s : specs()) EXPECT_TRUE(s.iterators()) << spec_text(s);
  check_iterator_specs(specs(), {{"times8", times8().source}, {"triangle", triangle().source}});
  EXPECT_EQ(spec_text(sorted_rows()),
            "segmented_sort keys=float32 values=int32 descending=false offset=int64 "
            "begin_offsets=transform(times8,counting(int64)) "
            "end_offsets=transform(times8,counting(int64))");
}

TEST(SegmentedSortIterator, WhatItCannotTakeIsRefusedByField) {
  const auto f32 = ScalarType::float32, none = ScalarType::none;
  expect_refused_by_field<SS>({
      {segmented_sort_over(f32, none, false, Iterator::discard(), {}), "'begin_offsets'",
       ErrorCode::unsupported},
      {segmented_sort_over(f32, none, false, {}, Iterator::counting(f32)), "'end_offsets'",
       ErrorCode::invalid_argument},
      {segmented_sort_over(f32, none, false, {}, Iterator::zip({Iterator::array(ScalarType::int64)})),
       "'end_offsets'", ErrorCode::unsupported},
  });
}

// An array spec's kernels are as they were; an offset iterator makes both offsets
// iterators in the three sort kernels and in the partition's selectors, an operator both
// use is defined once, and the selectors' layout is asserted.
TEST(SegmentedSortIterator, BothOffsetsAreIteratorsInEveryKernel) {
  const auto plain = Steps::source(SS{});
  ASSERT_EQ(plain.kernels.size(), 5u);
  EXPECT_NE(plain.kernels[0].find("const ::cuda::std::int32_t*, const ::cuda::std::int32_t*, "
                                  "::cuda::std::int32_t>"),
            std::string::npos)
      << plain.kernels[0];
  EXPECT_EQ(plain.source.find("cccl_cache_begin_t"), std::string::npos);
  EXPECT_EQ(plain.source.find("static_assert(sizeof(cub::"), std::string::npos);
  const auto rows = Steps::source(sorted_rows());
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_NE(rows.kernels[k].find("cccl_cache_begin_t, cccl_cache_end_t, "), std::string::npos)
        << rows.kernels[k];
  EXPECT_NE(rows.kernels[4].find("LargeSegmentsSelectorT<long, cccl_cache_begin_t, cccl_cache_end_t>"),
            std::string::npos)
      << rows.kernels[4];
  const auto first = rows.source.find(times8().source);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(rows.source.find(times8().source, first + 1), std::string::npos) << "defined twice";
  for (const char* held :
       {"sizeof(cccl_cache_begin_t) == 8 && alignof(cccl_cache_begin_t) == 8",
        "sizeof(cub::detail::segmented_sort::SmallSegmentsSelectorT<long, cccl_cache_begin_t, "
        "cccl_cache_end_t>) == 32 && alignof("})
    EXPECT_NE(rows.source.find(held), std::string::npos) << held;
}

// {OffsetT value; Begin; End; u64 base}, each at its natural alignment.
TEST(SegmentedSortIterator, SelectorLayoutAlignsEachMember) {
  using segmented_sort::detail::selector_layout;
  struct Case {
    std::size_t offset;
    detail::ArgumentExtent begin, end;
    std::size_t at[4], size, align;
  };
  const auto shuffle = detail::argument_extent(Iterator::shuffle(), ScalarType::int32);
  ASSERT_EQ(shuffle.align, 8u);
  const std::size_t s = shuffle.size;
  const Case cases[] = {
      {8, {8, 8}, {8, 8}, {0, 8, 16, 24}, 32, 8},
      {4, {4, 4}, {8, 8}, {0, 4, 8, 16}, 24, 8},  // counting(int32), an array
      {4, shuffle, {4, 4}, {0, 8, 8 + s, 8 + s + 8}, 8 + s + 16, 8},
  };
  for (const Case& c : cases) {
    const auto l = selector_layout(c.offset, c.begin, c.end);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(l.at[k], c.at[k]) << k;
    EXPECT_EQ(l.extent.size, c.size);
    EXPECT_EQ(l.extent.align, c.align);
  }
}

// The builds compile the selectors' layout assertions.
TEST(SegmentedSortIterator, BuildsForSm80AndSm90) {
  expect_builds_for_sm80_and_sm90(specs(), {0u, 1u}, 5);
}

}  // namespace
