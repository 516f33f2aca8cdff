// NVRTC builds of stateful custom operators (the generated struct holding the state, the
// user's function taking it first) in every algorithm that takes state: for sm_90, and
// for sm_80 too where the algorithm's policy differs there.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "build_cache.hpp"
#include "op_state_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

template <class Spec>
void expect_builds(const Spec& spec, std::uint32_t cc = 90) {
  SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
  ASSERT_TRUE(spec.validate());
  const auto& r = cached_build(spec, cc);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->result.record.cc, cc);
  EXPECT_FALSE(r->result.record.cubin.empty());
  // The state layout is in the generated source, hence in the codegen digest.
  Spec stateless = spec;
  Spec::fields(stateless, [](const Field&, auto& value) {
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, Operator>)
      value.state_size = value.state_alignment = 0;
  });
  EXPECT_NE(Spec::Algorithm::codegen_digest(spec), Spec::Algorithm::codegen_digest(stateless));
}

TEST(OpStateBuild, ReduceWithAStatefulOperatorBuilds) { expect_builds(reduce_plus_mod()); }

TEST(OpStateBuild, TransformsWithAStatefulOperatorBuild) {
  expect_builds(unary_affine());
  expect_builds(binary_weighted());
}

TEST(OpStateBuild, SelectWithAStatefulPredicateBuilds) { expect_builds(select_above()); }

TEST(OpStateBuild, MergeSortWithAStatefulComparatorBuilds) { expect_builds(sort_less_mod()); }

TEST(OpStateBuild, BinarySearchWithAStatefulComparatorBuilds) {
  for (std::uint32_t cc : {80u, 90u}) expect_builds(search_closer(), cc);
}

TEST(OpStateBuild, ScansWithAStatefulOperatorBuild) {
  for (std::uint32_t cc : {80u, 90u}) {
    expect_builds(scan_plus_mod<AlgorithmId::inclusive_scan>(), cc);
    expect_builds(scan_plus_mod<AlgorithmId::exclusive_scan>(), cc);
  }
}

TEST(OpStateBuild, SegmentedReduceWithAStatefulOperatorBuilds) {
  for (std::uint32_t cc : {80u, 90u}) expect_builds(segmented_plus_mod(), cc);
}

TEST(OpStateBuild, UniqueByKeyWithAStatefulEqualityBuilds) {
  for (std::uint32_t cc : {80u, 90u}) expect_builds(unique_div_equal(), cc);
}

// Two predicates, each with a state of its own layout; either alone stateful too.
TEST(OpStateBuild, ThreeWayPartitionWithTwoStatefulPredicatesBuilds) {
  for (std::uint32_t cc : {80u, 90u}) expect_builds(partition_below_above(), cc);
  auto first_only = partition_below_above();
  first_only.second_op = Operator::of(OpKind::identity);
  expect_builds(first_only);
}

}  // namespace
