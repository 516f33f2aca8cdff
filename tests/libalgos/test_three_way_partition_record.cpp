// three-way partition builds (NVRTC, no GPU): the two kernels DevicePartition::If
// launches with CUB's policy for sm_80 and sm_90, every element type with identity
// predicates, clear errors for bad predicate source, and records that disagree with their
// cubin rejected as corrupt.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <typeinfo>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using three_way_partition::BuildResult;
using three_way_partition::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

const Operator kId = Operator::of(OpKind::identity);

}  // namespace

TEST(ThreeWayPartitionBuild, Int32ForSm90And80HasCubsKernelsAndCubsPolicy) {
  const std::string i64 = typeid(std::int64_t).name();
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(Spec{}, cc);
    ASSERT_EQ(r.record.kernels.size(), 2u);
    EXPECT_NE(r.record.kernels[0].find("33DeviceThreeWayPartitionInitKernel"), std::string::npos);
    EXPECT_NE(r.record.kernels[1].find("29DeviceThreeWayPartitionKernel"), std::string::npos);
    // The count pair an uint64 (unsigned long: m), the streaming context over the host's
    // std::int64_t, as nvcc's CUB instantiates them.
    EXPECT_NE(r.record.kernels[0].find("EEPm"), std::string::npos) << r.record.kernels[0];
    EXPECT_NE(r.record.kernels[1].find("streaming_context_tI" + i64 + "EE"), std::string::npos)
        << r.record.kernels[1];
    EXPECT_EQ(r.record.algorithm, AlgorithmId::three_way_partition);
    EXPECT_EQ(r.record.cc, cc);
  }
  // CUB 3.5's selector for 4-byte items and int offsets: 320 x 12 on sm_90, 256 x 11 on sm_80.
  EXPECT_EQ(built(Spec{}, 90).policy, (three_way_partition::Policy{320, 12}));
  EXPECT_EQ(built(Spec{}, 80).policy, (three_way_partition::Policy{256, 11}));
}

// Every element type builds with identity predicates; the tile shape follows the item
// size as CUB's selector does; the offset and count types name the kernels only.
TEST(ThreeWayPartitionBuild, EveryElementTypeBuilds) {
  using S = ScalarType;
  for (S t : {S::int8, S::int16, S::int64, S::uint8, S::uint16, S::uint32, S::uint64, S::float32,
              S::float64, S::float16, S::bfloat16}) {
    const auto& r = built(Spec{t});
    EXPECT_EQ(r.spec.type, t);
  }
  EXPECT_NE(built(Spec{S::int8}).policy, built(Spec{S::float64}).policy);
  const auto& narrow = built(Spec{S::int32, kId, kId, S::int32, S::int32});
  EXPECT_EQ(narrow.policy, built().policy);
  EXPECT_NE(narrow.record.kernels[0].find("EEPi"), std::string::npos) << narrow.record.kernels[0];
  EXPECT_NE(narrow.record.kernels[1].find("streaming_context_tIiEE"), std::string::npos) << narrow.record.kernels[1];
}

TEST(ThreeWayPartitionBuild, CustomPredicatesBuildAndBadSourceGetsNvrtcsLog) {
  const auto& ok = built(Spec{ScalarType::float32,
                              Operator::custom("positive", "__device__ bool positive(float x) { return x > 0.0f; }"),
                              Operator::custom("tiny", "__device__ bool tiny(float x) { return x > -1.0f; }")});
  EXPECT_EQ(ok.policy, built(Spec{ScalarType::float32}).policy);
  auto r = three_way_partition::build(
      Spec{ScalarType::int32, kId, Operator::custom("f", "__device__ bool f(int x) { return x <* 2; }")}, 90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::compile) << r.error().describe();
  EXPECT_NE(r.error().message.find("operator(1): error"), std::string::npos) << r.error().message;
}

TEST(ThreeWayPartitionBuild, RejectsBadSpecs) {
  using S = ScalarType;
  EXPECT_EQ(three_way_partition::build(Spec{S::none}, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(three_way_partition::build(Spec{S::int32, Operator::less()}, 90).error().code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(three_way_partition::build(Spec{S::int32, kId, kId, S::uint64}, 90).error().code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(three_way_partition::build(Spec{}, 49).error().code, ErrorCode::unsupported);
}

// A policy that differs from the kernels' launch bounds, implausible values or swapped
// kernel names pass the blob grammar and must still be rejected as corrupt.
TEST(ThreeWayPartitionBuild, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<ThreeWayPartition> cases[] = {
      {"threads doubled", [](BuildResult& r) { r.policy.threads *= 2; }, "partition"},
      {"no items", [](BuildResult& r) { r.policy.items = 0; }, "implausible three_way_partition"},
      {"too many items", [](BuildResult& r) { r.policy.items = 257; }, "implausible three_way_partition"},
      {"swapped kernels", [](BuildResult& r) { std::swap(r.record.kernels[0], r.record.kernels[1]); }, "init"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[1] = "_Z3foov"; }, "not in the cubin"},
  };
  test_support::expect_corrupt<ThreeWayPartition>(built(), cases);
}
