// scan_by_key builds (NVRTC, no GPU): the two kernels cub::detail::scan_by_key::dispatch
// launches for sm_80 and sm_90, inclusive and exclusive, well-known and custom
// operators; clear errors for bad operator source; and records that disagree with their
// cubin rejected as corrupt.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using scan_by_key::BuildResult;
using scan_by_key::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

using S = ScalarType;
const Operator kEq = Operator::of(OpKind::equal_to);

}  // namespace

TEST(ScanByKeyBuild, ForSm90And80HasCubsKernelsAndAPlausiblePolicy) {
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(Spec{}, cc);
    ASSERT_EQ(r.record.kernels.size(), 2u);
    EXPECT_NE(r.record.kernels[0].find("25DeviceScanByKeyInitKernel"), std::string::npos);
    EXPECT_NE(r.record.kernels[1].find("21DeviceScanByKeyKernel"), std::string::npos);
    // The 8-byte offset is CUB's unsigned long long (y); the tile state pairs the value
    // with an int.
    EXPECT_NE(r.record.kernels[0].find("ReduceByKeyScanTileStateIiiLb1EE"), std::string::npos)
        << r.record.kernels[0];
    EXPECT_NE(r.record.kernels[1].find("NullType"), std::string::npos) << r.record.kernels[1];
    EXPECT_EQ(r.record.algorithm, AlgorithmId::scan_by_key);
    EXPECT_EQ(r.record.cc, cc);
    EXPECT_EQ(r.policy.block_threads % 32, 0u);
    EXPECT_GT(r.policy.items_per_thread, 0u);
  }
}

// Exclusive takes the value type as its initial value; a 4-byte offset, the value type
// and the operator name other kernels; the scan-by-key tuning follows the types.
TEST(ScanByKeyBuild, KernelsFollowTheSpec) {
  const auto& base = built();
  const auto& exclusive = built(Spec{S::int32, S::int32, kEq, Operator::plus(), true});
  EXPECT_EQ(exclusive.record.kernels[0], base.record.kernels[0]);
  EXPECT_NE(exclusive.record.kernels[1], base.record.kernels[1]);
  EXPECT_EQ(exclusive.record.kernels[1].find("NullType"), std::string::npos);
  const auto& narrow = built(Spec{S::int32, S::int32, kEq, Operator::plus(), false, S::uint32});
  EXPECT_NE(narrow.record.kernels[0], base.record.kernels[0]);
  EXPECT_NE(narrow.record.kernels[0].find("EPij"), std::string::npos) << narrow.record.kernels[0];
  const auto& wide = built(Spec{S::int64, S::float64, kEq, Operator::of(OpKind::maximum)});
  EXPECT_NE(wide.record.kernels[1].find("maximum"), std::string::npos) << wide.record.kernels[1];
}

// The accumulator is CUB's, named in the source (__accumulator_t) and its size read from
// the kernels' compile into the policy: int for int8 and uint16 values under plus, bool
// under logical_or, the value type under minimum and maximum; the kernels carry it.
TEST(ScanByKeyBuild, KernelsCarryCubsAccumulator) {
  const struct {
    Spec spec;
    const char* tile;  // the tile state's mangled accumulator, int pair
    std::uint32_t accum;
  } cases[] = {
      {Spec{S::int32, S::int8, kEq, Operator::plus()}, "ReduceByKeyScanTileStateIiiLb1EE", 4},
      {Spec{S::int32, S::uint16, kEq, Operator::plus(), true}, "ReduceByKeyScanTileStateIiiLb1EE", 4},
      {Spec{S::int32, S::int32, kEq, Operator::of(OpKind::logical_or)},
       "ReduceByKeyScanTileStateIbiLb1EE", 1},
      {Spec{S::int32, S::int8, kEq, Operator::of(OpKind::minimum)},
       "ReduceByKeyScanTileStateIaiLb1EE", 1},
      {Spec{S::int32, S::int8, kEq, Operator::of(OpKind::maximum), true},
       "ReduceByKeyScanTileStateIaiLb1EE", 1},
  };
  for (const auto& c : cases) {
    const auto& r = built(c.spec);
    for (const std::string& kernel : r.record.kernels)
      EXPECT_NE(kernel.find(c.tile), std::string::npos) << summary(c.spec) << ": " << kernel;
    EXPECT_EQ(r.policy.accum_size, c.accum) << summary(c.spec);
    EXPECT_EQ(r.policy.accum_align, c.accum) << summary(c.spec);
  }
}

TEST(ScanByKeyBuild, CustomOperatorsBuildAndBadSourceGetsNvrtcsLog) {
  const auto& ok = built(Spec{
      S::int32, S::uint32,
      Operator::custom("same_bucket",
                       "__device__ bool same_bucket(int a, int b) { return a / 8 == b / 8; }"),
      Operator::custom("mix", "__device__ unsigned mix(unsigned a, unsigned b) { return a ^ b; }"),
      true});
  EXPECT_EQ(ok.record.kernels.size(), 2u);
  test_support::expect_nvrtc_log(Spec{S::int32, S::int32, test_support::bad_int_predicate()});
}

TEST(ScanByKeyBuild, RejectsBadSpecs) {
  test_support::expect_build_refuses<Spec>(
      {Spec{S::none}, Spec{S::int32, S::int32, Operator::less()},
       Spec{S::int32, S::int32, kEq, Operator::plus(), false, S::int64}});
}

// A policy that differs from the kernels' launch bounds, implausible values or swapped
// kernel names pass the blob grammar and must still be rejected as corrupt.
TEST(ScanByKeyBuild, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  const test_support::CorruptCase<ScanByKey> cases[] = {
      {"block threads doubled", [](BuildResult& r) { r.policy.block_threads *= 2; }, "scan"},
      {"no items", [](BuildResult& r) { r.policy.items_per_thread = 0; }, "implausible scan_by_key"},
      {"not a warp multiple", [](BuildResult& r) { r.policy.block_threads = 100; },
       "implausible scan_by_key"},
      {"no int32 value's accumulator", [](BuildResult& r) { r.policy.accum_size = 2; },
       "implausible scan_by_key"},
      {"misaligned accumulator", [](BuildResult& r) { r.policy.accum_align = 1; },
       "implausible scan_by_key"},
      {"swapped kernels", [](BuildResult& r) { std::swap(r.record.kernels[0], r.record.kernels[1]); },
       "init"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[0] = "_Z3foov"; },
       "not in the cubin"},
  };
  test_support::expect_corrupt<ScanByKey>(built(), cases);
}
