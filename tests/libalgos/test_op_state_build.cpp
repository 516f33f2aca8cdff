// NVRTC builds for sm_90 of stateful custom operators (the generated struct holding the
// state, the user's function taking it first) in every algorithm that takes state.
#include <gtest/gtest.h>

#include "build_cache.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include "cccl_cache/algos/transform/spec.hpp"

using namespace cccl_cache::algos;
using test_support::cached_build;

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

TEST(OpStateBuild, ReduceWithAStatefulOperatorBuilds) {
  expect_builds(reduce::Spec{
      ScalarType::float32,
      Operator::custom("scaled_plus",
                       "__device__ float scaled_plus(void* s, float a, float b) {\n"
                       "  return a + b * *static_cast<float*>(s);\n}",
                       4, 4),
      ScalarType::uint64});
}

TEST(OpStateBuild, TransformsWithAStatefulOperatorBuild) {
  transform::Spec<1> unary;
  unary.op = Operator::custom("affine",
                              "__device__ float affine(void* s, float x) {\n"
                              "  const float* k = static_cast<const float*>(s);\n"
                              "  return k[0] * x + k[1];\n}",
                              8, 8);
  expect_builds(unary);
  transform::Spec<2> binary;
  binary.in = {ScalarType::int32, ScalarType::int32};
  binary.out = ScalarType::int64;
  binary.op = Operator::custom("weighted",
                               "__device__ long weighted(void* s, int a, int b) {\n"
                               "  const long* w = static_cast<const long*>(s);\n"
                               "  return w[0] * a + w[1] * b;\n}",
                               16, 16);
  expect_builds(binary);
}

TEST(OpStateBuild, SelectWithAStatefulPredicateBuilds) {
  expect_builds(select::Spec{ScalarType::int32,
                             Operator::custom("above",
                                              "__device__ bool above(void* s, int x) {\n"
                                              "  return x > *static_cast<int*>(s);\n}",
                                              4, 4)});
}

TEST(OpStateBuild, MergeSortWithAStatefulComparatorBuilds) {
  merge_sort::Spec s;
  s.key_type = ScalarType::uint32;
  s.value_type = ScalarType::uint32;
  s.comparator = Operator::custom("less_mod",
                                  "__device__ bool less_mod(void* s, unsigned a, unsigned b) {\n"
                                  "  const unsigned m = *static_cast<unsigned*>(s);\n"
                                  "  return a % m < b % m;\n}",
                                  4, 4);
  expect_builds(s);
}

}  // namespace
