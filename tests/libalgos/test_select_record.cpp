// select builds (NVRTC, no GPU): the two kernels DeviceSelect::If launches with CUB's
// policy for sm_80 and sm_90, every element type with the identity predicate, and clear
// errors for bad predicate source (its record checks: test_agent_select_record.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <typeinfo>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/select/build_result.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using select::BuildResult;
using select::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

}  // namespace

TEST(SelectBuild, Int32ForSm90And80HasCubsKernelsAndAPlausiblePolicy) {
  const std::string i64 = typeid(std::int64_t).name();
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(Spec{}, cc);
    ASSERT_EQ(r.record.kernels.size(), 2u);
    EXPECT_NE(r.record.kernels[0].find("23DeviceCompactInitKernel"), std::string::npos);
    EXPECT_NE(r.record.kernels[1].find("23DeviceSelectSweepKernel"), std::string::npos);
    // The per-partition tile state of int (i), the count an uint64 (unsigned long: m),
    // the streaming context over the host's std::int64_t, as nvcc's CUB instantiates it.
    EXPECT_NE(r.record.kernels[0].find("ScanTileStateIiLb1EEEPm"), std::string::npos) << r.record.kernels[0];
    EXPECT_NE(r.record.kernels[1].find("streaming_context_tI" + i64 + "Lb1EEE"), std::string::npos)
        << r.record.kernels[1];
    EXPECT_EQ(r.record.algorithm, AlgorithmId::select);
    EXPECT_EQ(r.record.cc, cc);
    EXPECT_GE(r.policy.threads, 128u) << cc;
    EXPECT_GE(r.policy.items, 4u) << cc;
    EXPECT_EQ(r.policy.vsmem_per_block, 0u);
  }
}

// Every element type builds with the identity predicate (an item converted to bool);
// the tile shape follows the item size as CUB's selector does.
TEST(SelectBuild, EveryElementTypeBuilds) {
  using S = ScalarType;
  for (S t : {S::int8, S::int16, S::int64, S::uint8, S::uint16, S::uint32, S::uint64, S::float32,
              S::float64, S::float16, S::bfloat16}) {
    const auto& r = built(Spec{t});
    EXPECT_EQ(r.spec.type, t);
    EXPECT_EQ(r.policy.vsmem_per_block, 0u) << name(t);
  }
  EXPECT_NE(built(Spec{S::int8}).policy, built(Spec{S::float64}).policy);
}

// The count's type names the kernels; the policy does not depend on it.
TEST(SelectBuild, SelectedTypeNamesTheKernels) {
  const auto& narrow = built(Spec{ScalarType::int32, Operator::of(OpKind::identity), ScalarType::int64,
                                  ScalarType::int32});
  EXPECT_EQ(narrow.policy, built().policy);
  EXPECT_NE(narrow.record.kernels[0].find("ScanTileStateIiLb1EEEPi"), std::string::npos) << narrow.record.kernels[0];
}

TEST(SelectBuild, CustomPredicateBuildsAndBadSourceGetsNvrtcsLog) {
  const auto& ok = built(Spec{ScalarType::float32,
                              Operator::custom("positive", "__device__ bool positive(float x) { return x > 0.0f; }")});
  EXPECT_EQ(ok.policy, built(Spec{ScalarType::float32}).policy);
  auto r = select::build(
      Spec{ScalarType::int32, Operator::custom("f", "__device__ bool f(int x) { return x <* 2; }")}, 90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::compile) << r.error().describe();
  EXPECT_NE(r.error().message.find("operator(1): error"), std::string::npos) << r.error().message;
}

TEST(SelectBuild, RejectsBadSpecs) {
  EXPECT_EQ(select::build(Spec{ScalarType::none}, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(select::build(Spec{ScalarType::int32, Operator::less()}, 90).error().code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(select::build(Spec{ScalarType::int32, Operator::of(OpKind::identity), ScalarType::uint64}, 90)
                .error()
                .code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(select::build(Spec{}, 49).error().code, ErrorCode::unsupported);
}
