// NVRTC builds over bool elements: a comparison's mask, all (logical_and: a bool
// accumulator) and plus (CUB's int accumulator) for sm_80 and sm_90, a radix sort by a
// flag, and a kept-where-true select.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "bool_specs.hpp"
#include "build_cache.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

template <class Spec>
const auto& expect_builds(const Spec& spec, std::uint32_t cc = 90) {
  SCOPED_TRACE(summary(spec) + " sm_" + std::to_string(cc));
  EXPECT_TRUE(spec.validate());
  return built_or_throw(spec, cc);
}

TEST(BoolBuild, AComparisonWritesABoolMask) {
  const auto& r = expect_builds(bools::less_mask());
  EXPECT_FALSE(r.record.cubin.empty());
  EXPECT_EQ(r.record.cc, 90u);
}

TEST(BoolBuild, ReductionsAccumulateAsCubDoes) {
  for (const std::uint32_t cc : {80u, 90u}) {
    const auto& all = expect_builds(bools::all_of(), cc);
    EXPECT_EQ(all.policy.accum_size, 1u) << "logical_and over bool accumulates in bool";
  }
  const auto& plus = expect_builds(bools::plus_of());
  EXPECT_EQ(plus.policy.accum_size, 4u) << "plus over bool accumulates in int";
}

TEST(BoolBuild, RadixSortAndSelectTakeBool) {
  EXPECT_FALSE(expect_builds(bools::radix_by_flag()).record.cubin.empty());
  EXPECT_FALSE(expect_builds(bools::keep_trues()).record.cubin.empty());
}

}  // namespace
