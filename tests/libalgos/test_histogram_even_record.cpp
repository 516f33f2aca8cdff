// histogram_even builds (NVRTC, no GPU): the three kernels HistogramEven launches with
// CUB's policy for sm_80 and sm_90, byte samples (CUB's byte-sample sweep) and wide types,
// and records that disagree with their cubin rejected as corrupt.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using histogram_even::BuildResult;
using histogram_even::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

using S = ScalarType;
const std::string kScale = "ScaleTransform", kPass = "PassThruTransform";

// Whether `name` spells `first` before `second` (the privatized decode op, then the output one).
bool in_order(const std::string& name, const std::string& first, const std::string& second) {
  const auto a = name.find(first), b = name.rfind(second);
  return a != std::string::npos && b != std::string::npos && a < b;
}

}  // namespace

TEST(HistogramEvenBuild, Int32ForSm90And80HasCubsKernelsAndCubsPolicy) {
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(Spec{}, cc);
    ASSERT_EQ(r.record.kernels.size(), 3u);
    EXPECT_NE(r.record.kernels[0].find("25DeviceHistogramInitKernel"), std::string::npos);
    for (int k : {1, 2}) {
      EXPECT_NE(r.record.kernels[k].find("36DeviceHistogramSweepDeviceInitKernel"),
                std::string::npos);
      EXPECT_TRUE(in_order(r.record.kernels[k], kScale, kPass)) << r.record.kernels[k];
    }
    EXPECT_NE(r.record.kernels[1].find("Li256ELi1ELi1E"), std::string::npos) << r.record.kernels[1];
    EXPECT_NE(r.record.kernels[2].find("Li0ELi1ELi1E"), std::string::npos) << r.record.kernels[2];
    EXPECT_EQ(r.record.algorithm, AlgorithmId::histogram_even);
    EXPECT_EQ(r.record.cc, cc);
  }
  // CUB 3.5's selector for 4-byte samples and counters, even bins: 384 x 16 (its sm_50
  // fallback) on both.
  EXPECT_EQ(built(Spec{}, 90).policy, (histogram_even::Policy{384, 16}));
  EXPECT_EQ(built(Spec{}, 80).policy, (histogram_even::Policy{384, 16}));
}

// 1-byte samples: the shared sweep is CUB's byte-sample instance (the 256 values passed
// through, scaled on output) with its sm_90 tuning; wide types scale the tile down.
TEST(HistogramEvenBuild, ByteSamplesAndWideTypes) {
  const auto& bytes = built(Spec{S::uint8, S::int32, S::uint32, S::int32});
  EXPECT_TRUE(in_order(bytes.record.kernels[1], kPass, kScale)) << bytes.record.kernels[1];
  EXPECT_TRUE(in_order(bytes.record.kernels[2], kScale, kPass)) << bytes.record.kernels[2];
  EXPECT_EQ(bytes.policy, (histogram_even::Policy{768, 12}));
  const auto& wide = built(Spec{S::float64, S::none, S::uint64, S::int64});
  EXPECT_EQ(wide.policy, (histogram_even::Policy{384, 8}));
  EXPECT_NE(wide.record.kernels[0].find("Li1EylE"),
            std::string::npos)  // unsigned long long bins, long offsets
      << wide.record.kernels[0];
}

TEST(HistogramEvenBuild, RejectsBadSpecs) {
  EXPECT_EQ(histogram_even::build(Spec{S::none}, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(histogram_even::build(Spec{S::float16}, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(histogram_even::build(Spec{S::int32, S::none, S::int64}, 90).error().code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(histogram_even::build(Spec{}, 49).error().code, ErrorCode::unsupported);
}

// A policy that differs from the kernels' launch bounds, implausible values or swapped
// kernel names pass the blob grammar and must still be rejected as corrupt.
TEST(HistogramEvenBuild, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<HistogramEven> cases[] = {
      {"threads doubled", [](BuildResult& r) { r.policy.threads *= 2; }, "sweep_shared"},
      {"no pixels", [](BuildResult& r) { r.policy.pixels = 0; }, "implausible histogram_even"},
      {"too many pixels", [](BuildResult& r) { r.policy.pixels = 65; },
       "implausible histogram_even"},
      {"swapped sweeps",
       [](BuildResult& r) { std::swap(r.record.kernels[1], r.record.kernels[2]); }, "sweep_shared"},
      {"swapped init", [](BuildResult& r) { std::swap(r.record.kernels[0], r.record.kernels[1]); },
       "init"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[2] = "_Z3foov"; },
       "not in the cubin"},
  };
  test_support::expect_corrupt<HistogramEven>(built(), cases);
}
