// segmented_sort builds (NVRTC, no GPU): the five kernels cub::detail::segmented_sort::
// dispatch launches (fallback, small, large, and the three-way partition's two) with CUB's
// policies for sm_80 and sm_90 as the host evaluates its selectors, keys and pairs, both
// orders; and records that disagree with their cubin rejected as corrupt.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "record_cases.hpp"
#include "segmented_sort/dispatch.hpp"
#include "segmented_sort_policy_reference.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using segmented_sort::BuildResult;
using segmented_sort::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

using S = ScalarType;

}  // namespace

TEST(SegmentedSortBuild, ForSm90And80HasCubsKernelsAndCubsPolicy) {
  const Spec specs[] = {Spec{}, Spec{S::uint64, S::int16, true, S::int64},
                        Spec{S::float16, S::none, true, S::uint32}};
  for (const Spec& spec : specs)
    for (std::uint32_t cc : {90u, 80u}) {
      SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
      const auto& r = built(spec, cc);
      ASSERT_EQ(r.record.kernels.size(), 5u);
      EXPECT_NE(r.record.kernels[0].find("33DeviceSegmentedSortFallbackKernel"), std::string::npos);
      EXPECT_NE(r.record.kernels[1].find("30DeviceSegmentedSortKernelSmall"), std::string::npos);
      EXPECT_NE(r.record.kernels[2].find("30DeviceSegmentedSortKernelLarge"), std::string::npos);
      EXPECT_NE(r.record.kernels[3].find("33DeviceThreeWayPartitionInitKernel"), std::string::npos);
      EXPECT_NE(r.record.kernels[4].find("29DeviceThreeWayPartitionKernel"), std::string::npos);
      EXPECT_EQ(r.record.algorithm, AlgorithmId::segmented_sort);
      EXPECT_EQ(r.record.cc, cc);
      // The device compile's policies are what CUB's selectors give on the host.
      EXPECT_EQ(r.policy, test_support::cub_segmented_sort_policy(spec, cc));
    }
}

TEST(SegmentedSortBuild, OrderAndTypesAreInTheKernelNames) {
  const auto& asc = built(Spec{});
  const auto& desc = built(Spec{S::float32, S::none, true, S::int32});
  EXPECT_NE(asc.record.kernels[0], desc.record.kernels[0]);
  EXPECT_EQ(asc.record.kernels[3], desc.record.kernels[3]);  // the partition init is the same
  const auto& pairs = built(Spec{S::float32, S::int64, false, S::int32});
  EXPECT_NE(pairs.record.kernels[1].find("fl"), std::string::npos) << pairs.record.kernels[1];
}

TEST(SegmentedSortBuild, RejectsBadSpecs) {
  EXPECT_EQ(segmented_sort::build(Spec{S::none}, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(segmented_sort::build(Spec{S::int32, S::none, false, S::int8}, 90).error().code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(segmented_sort::build(Spec{}, 49).error().code, ErrorCode::unsupported);
}

// A policy that differs from the kernels' launch bounds, implausible values or swapped
// kernel names pass the blob grammar and must still be rejected as corrupt.
TEST(SegmentedSortBuild, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<SegmentedSort> cases[] = {
      {"large threads doubled", [](BuildResult& r) { r.policy.large_threads *= 2; }, "fallback"},
      {"small threads halved", [](BuildResult& r) { r.policy.small_threads /= 2; }, "small"},
      {"partition threads doubled", [](BuildResult& r) { r.policy.partition_threads *= 2; },
       "partition"},
      {"no radix bits", [](BuildResult& r) { r.policy.radix_bits = 0; }, "implausible segmented_sort"},
      {"warp not dividing the block", [](BuildResult& r) { r.policy.small_warp_threads = 3; },
       "implausible segmented_sort"},
      {"swapped small and large",
       [](BuildResult& r) { std::swap(r.record.kernels[1], r.record.kernels[2]); }, "small"},
      {"swapped partition kernels",
       [](BuildResult& r) { std::swap(r.record.kernels[3], r.record.kernels[4]); }, "partition"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[0] = "_Z3foov"; },
       "not in the cubin"},
  };
  test_support::expect_corrupt<SegmentedSort>(built(), cases);
}
