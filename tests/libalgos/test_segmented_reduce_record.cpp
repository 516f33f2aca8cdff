// Segmented reduce builds (NVRTC, no GPU) and its own record checks: the kernel
// DeviceSegmentedReduce::Reduce launches with CUB's policy, clear errors for bad
// operator source, and entries whose name or policy disagree with their cubin are
// corrupt.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <typeinfo>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using segmented_reduce::BuildResult;
using segmented_reduce::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

}  // namespace

TEST(SegmentedReduceBuild, Float32PlusForSm90And80HasCubsPolicy) {
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(Spec{}, cc);
    ASSERT_EQ(r.record.kernels.size(), 1u);
    EXPECT_NE(r.record.kernels[0].find("27DeviceSegmentedReduceKernel"), std::string::npos);
    EXPECT_EQ(r.record.algorithm, AlgorithmId::segmented_reduce);
    EXPECT_EQ(r.record.cc, cc);
    // CUB's segmented policy is reduce's multi-tile pass (256 x 16 for 4-byte
    // accumulators on sm_60..sm_90), with warps of 32 (medium) and 1 (small) thread.
    EXPECT_EQ(r.policy, (segmented_reduce::Policy{256, 16, 32, 16, 1, 16})) << cc;
  }
}

// The accumulator is CUB's for the operator: a custom one returning double over
// float16 elements gets the 8-byte accumulator's policy; int32 offsets name the kernel
// with int offsets.
TEST(SegmentedReduceBuild, AccumulatorAndOffsetsAreCubs) {
  const auto& wide = built(Spec{ScalarType::float16,
                                Operator::custom("wide_sum", "__device__ double wide_sum(double a, double b) { return a + b; }"),
                                ScalarType::int32});
  EXPECT_LT(wide.policy.items, 16u);  // scale_mem_bound for 8 bytes
  EXPECT_NE(wide.record.kernels[0].find("PiS"), std::string::npos) << wide.record.kernels[0];
  const auto& u32 = built(Spec{ScalarType::int32, Operator::of(OpKind::maximum), ScalarType::uint32});
  EXPECT_NE(u32.record.kernels[0], wide.record.kernels[0]);
}

// int64 data and offsets are the host's std::int64_t, the type nvcc's CUB instantiates
// DeviceSegmentedReduce::Reduce with for a caller's std::int64_t arrays, and so the same
// kernel: NVRTC's ::cuda::std::int64_t is long long, for which CUB's warp reductions
// take another (inline-PTX shuffle) path, 40 registers against nvcc's 32 on sm_90.
// The mangled name holds the types as the host compiler (and nvcc's host pass) mangles
// them: policy_selector_from_types<T, offset, plus> and then T* d_in.
TEST(SegmentedReduceBuild, Int64IsTheHostsInt64AsNvccsCubInstantiatesIt) {
  const std::string i64 = typeid(std::int64_t).name();
  const auto& r = built(Spec{ScalarType::int64, Operator::plus(), ScalarType::int64});
  const std::string& kernel = r.record.kernels[0];
  EXPECT_NE(kernel.find("policy_selector_from_typesI" + i64 + i64 + "N4cuda3std"), std::string::npos)
      << kernel;
  EXPECT_NE(kernel.find("plusIvEEEEP" + i64 + "S"), std::string::npos) << kernel;
  const std::string u64 = typeid(std::uint64_t).name();
  const auto& u = built(Spec{ScalarType::uint64, Operator::of(OpKind::maximum), ScalarType::uint64});
  EXPECT_NE(u.record.kernels[0].find("policy_selector_from_typesI" + u64 + u64 + "N4cuda"),
            std::string::npos)
      << u.record.kernels[0];
}

TEST(SegmentedReduceBuild, BadOperatorSourceGetsNvrtcsLog) {
  auto r = segmented_reduce::build(
      Spec{ScalarType::float32, Operator::custom("f", "__device__ float f(float a, float b) { return a +* b; }"),
           ScalarType::int64},
      90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::compile) << r.error().describe();
  // The log names the user operator's own line and what is wrong there.
  EXPECT_NE(r.error().message.find("operator(1): error: operand of \"*\" must be a pointer"),
            std::string::npos)
      << r.error().message;
}

TEST(SegmentedReduceBuild, RejectsBadSpecs) {
  EXPECT_EQ(segmented_reduce::build(Spec{ScalarType::none}, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(segmented_reduce::build(Spec{ScalarType::float32, Operator::of(OpKind::bit_or)}, 90).error().code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(segmented_reduce::build(Spec{ScalarType::float32, Operator::plus(), ScalarType::int8}, 90)
                .error()
                .code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(segmented_reduce::build(Spec{}, 49).error().code, ErrorCode::unsupported);
}

// A policy that differs from the kernel's launch bounds, or implausible values, pass
// the blob grammar and must still be rejected.
TEST(SegmentedReduceRecord, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<SegmentedReduce> cases[] = {
      {"threads doubled", [](BuildResult& r) { r.policy.threads *= 2; }, "segmented reduce kernel"},
      {"no items", [](BuildResult& r) { r.policy.items = 0; }, "implausible"},
      {"a warp wider than 32", [](BuildResult& r) { r.policy.medium_warp_threads = 64; }, "implausible"},
      {"a warp not dividing the block", [](BuildResult& r) { r.policy.small_warp_threads = 3; },
       "implausible"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[0] = "_Z3foov"; }, "not in the cubin"},
  };
  test_support::expect_corrupt<SegmentedReduce>(built(), cases);
}
