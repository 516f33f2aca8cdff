// Reduce builds (NVRTC, no GPU) and its own record checks: the kernels DeviceReduce
// launches with CUB's policy and accumulator, and entries whose names or policy
// disagree with their cubin are corrupt.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using reduce::BuildResult;
using reduce::Spec;

namespace {

Spec spec_of(ScalarType t, Operator op = Operator::plus(), ScalarType offset = ScalarType::uint64) {
  Spec s;
  s.type = t;
  s.op = std::move(op);
  s.offset_type = offset;
  return s;
}

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

void expect_kernels(const BuildResult& r) {
  ASSERT_EQ(r.record.kernels.size(), 3u);
  EXPECT_NE(r.record.kernels[0].find("DeviceReduceSingleTileKernel"), std::string::npos);
  EXPECT_NE(r.record.kernels[0].find("cccl_cache_single_tile"), std::string::npos);
  EXPECT_NE(r.record.kernels[1].find("18DeviceReduceKernel"), std::string::npos);
  EXPECT_NE(r.record.kernels[2].find("cccl_cache_second_pass"), std::string::npos);
}

}  // namespace

TEST(ReduceBuild, Float32PlusForSm90And80HasCubsPolicy) {
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(Spec{}, cc);
    expect_kernels(r);
    EXPECT_EQ(r.record.algorithm, AlgorithmId::reduce);
    EXPECT_EQ(r.record.cc, cc);
    // get_two_phase_tuning for sm_60..sm_90: 256 threads x 16 items for 4-byte accumulators.
    EXPECT_EQ(r.policy, (reduce::Policy{256, 16, 256, 16, 4, 4})) << cc;
  }
}

// DeviceReduce's accumulator: int for plus over int8 (P2322), the operator's own
// result for a custom one; the policy scales with the accumulator, not the element.
TEST(ReduceBuild, AccumulatorIsCubsForTheOperator) {
  const auto& i8 = built(spec_of(ScalarType::int8));
  expect_kernels(i8);
  EXPECT_EQ(i8.policy.accum_size, 4u);
  EXPECT_EQ(i8.policy.multi_tile_items, 16u);
  const auto& wide = built(spec_of(
      ScalarType::float16,
      Operator::custom("wide_sum", "__device__ double wide_sum(double a, double b) { return a + b; }"),
      ScalarType::uint32));
  expect_kernels(wide);
  EXPECT_EQ(wide.policy.accum_size, 8u);
  EXPECT_EQ(wide.policy.accum_align, 8u);
  EXPECT_LT(wide.policy.multi_tile_items, 16u);  // scale_mem_bound for 8 bytes
}

TEST(ReduceBuild, AnAccumulatorWithoutAHostStandInIsUnsupported) {
  auto r = reduce::build(
      spec_of(ScalarType::float32,
              Operator::custom("wide_sum",
                               "struct wide_t {\n"
                               "  double a, b;\n"
                               "  __host__ __device__ wide_t(float x = 0.f) : a(x), b(0) {}\n"
                               "  __host__ __device__ operator float() const { return float(a + b); }\n"
                               "};\n"
                               "__device__ wide_t wide_sum(wide_t x, wide_t y) {\n"
                               "  wide_t r; r.a = x.a + y.a; r.b = x.b + y.b; return r; }")),
      90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::unsupported) << r.error().describe();
  EXPECT_NE(r.error().message.find("16 bytes"), std::string::npos) << r.error().message;
}

TEST(ReduceBuild, RejectsBadSpecs) {
  EXPECT_EQ(reduce::build(spec_of(ScalarType::none), 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(reduce::build(spec_of(ScalarType::float32, Operator::of(OpKind::bit_xor)), 90)
                .error()
                .code,
            ErrorCode::invalid_argument);
  EXPECT_EQ(reduce::build(Spec{}, 49).error().code, ErrorCode::unsupported);
}

// Kernel names that are swapped (each still a kernel of the cubin) or a policy that
// differs from the launch bounds pass the blob grammar and must still be rejected.
TEST(ReduceRecord, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<Reduce> cases[] = {
      {"single tile and second pass swapped",
       [](BuildResult& r) { std::swap(r.record.kernels[0], r.record.kernels[2]); },
       "does not name a reduce single-tile kernel"},
      {"first and second pass swapped",
       [](BuildResult& r) { std::swap(r.record.kernels[1], r.record.kernels[2]); },
       "does not name a reduce first-pass kernel"},
      {"multi-tile threads doubled", [](BuildResult& r) { r.policy.multi_tile_threads *= 2; },
       "first-pass kernel"},
      {"single-tile threads halved", [](BuildResult& r) { r.policy.single_tile_threads /= 2; },
       "single-tile kernel"},
      {"no accumulator", [](BuildResult& r) { r.policy.accum_size = 0; },
       "implausible reduce policy (multi_tile_threads="},
      {"no accumulator, named", [](BuildResult& r) { r.policy.accum_size = 0; }, " accum_size=0 "},
      {"items per thread zero", [](BuildResult& r) { r.policy.multi_tile_items = 0; },
       "implausible"},
  };
  test_support::expect_corrupt<Reduce>(built(), cases);
}
