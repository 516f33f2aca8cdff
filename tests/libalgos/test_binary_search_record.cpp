// Binary search builds (NVRTC, no GPU): the transform kernel DeviceFind::LowerBound /
// UpperBound launch, with CUB's search operator over the comparator and the unary
// transform's policy, for sm_90; clear errors for bad comparator source; records that
// disagree with their cubin rejected as corrupt.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "build_cache.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using binary_search::BuildResult;
using binary_search::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

}  // namespace

TEST(BinarySearchBuild, NamesTheTransformKernelOverCubsSearchOperator) {
  const auto& lower = built();
  ASSERT_EQ(lower.record.kernels.size(), 1u);
  const std::string& name = lower.record.kernels[0];
  EXPECT_NE(name.find("16transform_kernel"), std::string::npos) << name;
  EXPECT_NE(name.find("28binary_search_transform_op_t"), std::string::npos) << name;
  EXPECT_NE(name.find("11lower_bound"), std::string::npos) << name;
  EXPECT_EQ(lower.record.algorithm, AlgorithmId::binary_search);
  // The search operator does not change CUB's transform policy: the unary transform's
  // for the same element types.
  EXPECT_EQ(lower.policy, test_support::built_or_throw(
                              transform::UnarySpec{{ScalarType::int32}, ScalarType::int64}, 90)
                              .policy);
  const auto& upper = built(binary_search::upper_bound(ScalarType::int32));
  EXPECT_NE(upper.record.kernels[0].find("11upper_bound"), std::string::npos)
      << upper.record.kernels[0];
}

TEST(BinarySearchBuild, CustomComparatorBuildsAndBadSourceGetsNvrtcsLog) {
  Spec abs{
      ScalarType::float32, ScalarType::uint32,
      Operator::custom(
          "abs_less", "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }"),
      true};
  const auto& ok = built(abs);
  EXPECT_EQ(ok.spec, abs);
  auto r = binary_search::build(
      Spec{ScalarType::int32, ScalarType::int64,
           Operator::custom("f", "__device__ bool f(int a, int b) { return a <* b; }")},
      90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::compile) << r.error().describe();
  EXPECT_NE(r.error().message.find("operator(1): error"), std::string::npos) << r.error().message;
}

TEST(BinarySearchBuild, RejectsBadSpecs) {
  using S = ScalarType;
  EXPECT_EQ(binary_search::build(Spec{S::none}, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(binary_search::build(Spec{S::int32, S::int16}, 90).error().code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(
      binary_search::build(Spec{S::int32, S::int64, Operator::of(OpKind::plus)}, 90).error().code,
      ErrorCode::invalid_argument);
  EXPECT_EQ(binary_search::build(Spec{}, 49).error().code, ErrorCode::unsupported);
}

// A policy that differs from the kernel's launch bounds, implausible values or another
// kernel's name pass the blob grammar and must still be rejected as corrupt.
TEST(BinarySearchBuild, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<BinarySearch> cases[] = {
      {"threads doubled", [](BuildResult& r) { r.policy.block_threads *= 2; },
       "implausible transform"},
      {"unknown algorithm", [](BuildResult& r) { r.policy.algorithm = 9; },
       "implausible transform"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[0] = "_Z3foov"; },
       "not in the cubin"},
  };
  test_support::expect_corrupt<BinarySearch>(built(), cases);
}
