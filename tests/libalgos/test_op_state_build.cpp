// NVRTC builds for sm_90 of stateful custom operators (the generated struct holding the
// state, the user's function taking it first) in every algorithm that takes state.
#include <gtest/gtest.h>

#include <type_traits>

#include "build_cache.hpp"
#include "op_state_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

template <class Spec>
void expect_builds(const Spec& spec) {
  SCOPED_TRACE(summary(spec));
  ASSERT_TRUE(spec.validate());
  const auto& r = cached_build(spec, 90);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->result.record.cc, 90u);
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

}  // namespace
