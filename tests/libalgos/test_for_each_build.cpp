// for_each builds (NVRTC, no GPU): the one kernel DeviceFor::ForEachN launches (CUB's
// static_kernel over DeviceFor's wrapper) for sm_80 and sm_90, over arrays, iterators and
// struct items, stateful operators; clear errors for bad operator source; records that
// disagree with their cubin rejected as corrupt.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/for_each/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using for_each::BuildResult;
using for_each::Spec;

namespace {

using S = ScalarType;

Spec twice(S offset = S::int64) {
  return {S::float32, Operator::custom("twice", "__device__ void twice(float& x) { x *= 2; }"), offset};
}
const BuildResult& built(const Spec& s = twice(), std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

}  // namespace

TEST(ForEachBuild, ForSm90And80HasCubsKernelAndPolicy) {
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(twice(), cc);
    ASSERT_EQ(r.record.kernels.size(), 1u);
    // static_kernel<policy_selector, long, cccl_cache_wrapper>
    EXPECT_NE(r.record.kernels[0].find("8for_each13static_kernelINS2_15policy_selectorEl18cccl_cache_wrapper"),
              std::string::npos)
        << r.record.kernels[0];
    EXPECT_EQ(r.record.algorithm, AlgorithmId::for_each);
    EXPECT_EQ(r.record.cc, cc);
    // CCCL 3.5's ForPolicy for every CC.
    EXPECT_EQ(r.policy, (for_each::Policy{256, 2})) << cc;
  }
}

// The offset type names the kernel (int32 i, uint32 j, uint64 m); iterators, stateful
// operators and struct items build, each another kernel.
TEST(ForEachBuild, OffsetsIteratorsStateAndStructsBuild) {
  for (const auto& [offset, mangled] : {std::pair{S::int32, "selectorEi18"}, std::pair{S::uint32, "selectorEj18"},
                                        std::pair{S::uint64, "selectorEm18"}}) {
    const auto& r = built(twice(offset));
    EXPECT_NE(r.record.kernels[0].find(mangled), std::string::npos) << r.record.kernels[0];
  }
  // 8-byte integer items by reference as users spell them: long long&, int64_t&, unsigned long long&.
  for (const auto& [type, source] :
       {std::pair{S::int64, "__device__ void inc(long long& x) { ++x; }"},
        std::pair{S::int64, "__device__ void inc(int64_t& x) { ++x; }"},
        std::pair{S::uint64, "__device__ void inc(unsigned long long& x) { atomicAdd(&x, 1ull); }"}}) {
    const Spec s{type, Operator::custom("inc", source)};
    EXPECT_EQ(built(s).record.kernels.size(), 1u) << source;
  }
  Spec counted{S::int64,
               Operator::custom("count3",
                                "__device__ void count3(void* s, long long x) { if (x % 3 == 0) "
                                "atomicAdd(*(unsigned long long**)s, 1ull); }",
                                8, 8),
               S::int64, Iterator::counting(S::int64)};
  EXPECT_EQ(built(counted).record.kernels.size(), 1u);
  Spec pairs{ElementType::structure("pair", "struct pair { int k; float v; };", 8, 4),
             Operator::custom("swap_halves", "__device__ void swap_halves(pair& p) { p.k = -p.k; p.v *= 2; }")};
  EXPECT_EQ(built(pairs).record.kernels.size(), 1u);
  Spec zipped = pairs;
  zipped.op = Operator::custom("read", "__device__ void read(void* s, pair p) { **(float**)s += p.v; }", 8, 8);
  zipped.input = Iterator::zip({Iterator::array(S::int32), Iterator::constant(S::float32)});
  EXPECT_EQ(built(zipped).record.kernels.size(), 1u);
}

TEST(ForEachBuild, BadSourceGetsNvrtcsLogAndBadSpecsAreRefused) {
  test_support::expect_nvrtc_log(Spec{S::int32, test_support::bad_int_predicate()});
  // An operator that cannot take an iterator's value by reference: NVRTC names the call.
  Spec by_ref{S::int32, Operator::custom("inc", "__device__ void inc(int& x) { x += 1; }")};
  by_ref.input = Iterator::counting(S::int32);
  auto r = build(by_ref, 90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::compile);
  for (const Spec& s : {Spec{}, Spec{S::int32, Operator::plus()}, twice(S::float32)})
    EXPECT_EQ(build(s, 90).error().code, ErrorCode::invalid_argument) << summary(s);
  EXPECT_EQ(build(twice(), 49).error().code, ErrorCode::unsupported);
}

// A policy that differs from the kernel's launch bounds, implausible values or another
// kernel's name pass the blob grammar and must still be rejected as corrupt.
TEST(ForEachBuild, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<ForEach> cases[] = {
      {"block threads doubled", [](BuildResult& r) { r.policy.block_threads *= 2; }, "for_each"},
      {"no items", [](BuildResult& r) { r.policy.items_per_thread = 0; }, "implausible for_each"},
      {"not a warp multiple", [](BuildResult& r) { r.policy.block_threads = 100; },
       "implausible for_each"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[0] = "_Z3foov"; },
       "not in the cubin"},
  };
  test_support::expect_corrupt<ForEach>(built(), cases);
}
