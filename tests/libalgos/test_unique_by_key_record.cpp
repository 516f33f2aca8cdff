// unique_by_key builds (NVRTC, no GPU): the two kernels DeviceSelect::UniqueByKey
// launches with CUB's policy for sm_80 and sm_90, and clear errors for bad operator
// source (its record checks: test_agent_select_record.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <typeinfo>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using unique_by_key::BuildResult;
using unique_by_key::Spec;

namespace {

const BuildResult& built(const Spec& s = Spec{}, std::uint32_t cc = 90) {
  return test_support::built_or_throw(s, cc);
}

}  // namespace

TEST(UniqueByKeyBuild, Int32PairsForSm90And80HaveCubsPolicyAndKernels) {
  for (std::uint32_t cc : {90u, 80u}) {
    const auto& r = built(Spec{}, cc);
    ASSERT_EQ(r.record.kernels.size(), 2u);
    EXPECT_NE(r.record.kernels[0].find("23DeviceCompactInitKernel"), std::string::npos);
    EXPECT_NE(r.record.kernels[1].find("28DeviceUniqueByKeySweepKernel"), std::string::npos);
    // The 8-byte offset is CUB's unsigned long long (y), the count an uint64 (m).
    EXPECT_NE(r.record.kernels[1].find("ScanTileStateIyLb1EE"), std::string::npos) << r.record.kernels[1];
    EXPECT_EQ(r.record.algorithm, AlgorithmId::unique_by_key);
    EXPECT_EQ(r.record.cc, cc);
    // CUB's tuning for 4-byte primitive keys and values: 512 x 14 on sm_90, 256 x 11 on
    // sm_80; no virtual shared memory.
    const unique_by_key::Policy cub = cc == 90 ? unique_by_key::Policy{512, 14, 0} : unique_by_key::Policy{256, 11, 0};
    EXPECT_EQ(r.policy, cub) << cc;
  }
}

// The policy follows the key and value sizes as CUB's selector does; a 4-byte offset
// and count name other kernels.
TEST(UniqueByKeyBuild, PolicyAndKernelsFollowTheTypes) {
  const auto& base = built();
  const auto& wide = built(Spec{ScalarType::float64, ScalarType::int8});
  EXPECT_NE(wide.policy, base.policy);
  const auto& narrow = built(Spec{ScalarType::int32, ScalarType::int32, Operator::of(OpKind::equal_to),
                                  ScalarType::uint32, ScalarType::int32});
  EXPECT_EQ(narrow.policy, base.policy);
  EXPECT_NE(narrow.record.kernels[1].find("ScanTileStateIjLb1EE"), std::string::npos) << narrow.record.kernels[1];
  EXPECT_NE(narrow.record.kernels[0].find("Pi"), std::string::npos) << narrow.record.kernels[0];
}

// int64 keys, values and count are the host's std::int64_t, as nvcc's CUB instantiates
// DeviceSelect::UniqueByKey for a caller's std::int64_t arrays (not NVRTC's
// ::cuda::std::int64_t, long long): the same kernels by name.
TEST(UniqueByKeyBuild, Int64IsTheHostsInt64AsNvccsCubInstantiatesIt) {
  const std::string i64 = typeid(std::int64_t).name();
  const auto& r = built(Spec{ScalarType::int64, ScalarType::int64, Operator::of(OpKind::equal_to),
                             ScalarType::uint64, ScalarType::int64});
  EXPECT_NE(r.record.kernels[1].find("policy_selector_from_typesI" + i64 + i64 + "EEP" + i64),
            std::string::npos)
      << r.record.kernels[1];
  EXPECT_NE(r.record.kernels[0].find("ScanTileStateIyLb1EEEP" + i64), std::string::npos)
      << r.record.kernels[0];
}

TEST(UniqueByKeyBuild, CustomOperatorBuildsAndBadSourceGetsNvrtcsLog) {
  const auto& ok = built(Spec{ScalarType::int32, ScalarType::float32,
                              Operator::custom("same_bucket", "__device__ bool same_bucket(int a, int b) { return a / 8 == b / 8; }")});
  EXPECT_EQ(ok.policy, built().policy);
  test_support::expect_nvrtc_log(
      Spec{ScalarType::int32, ScalarType::int32, test_support::bad_int_predicate()});
}

TEST(UniqueByKeyBuild, RejectsBadSpecs) {
  test_support::expect_build_refuses<Spec>(
      {Spec{ScalarType::none}, Spec{ScalarType::int32, ScalarType::int32, Operator::less()},
       Spec{ScalarType::int32, ScalarType::int32, Operator::of(OpKind::equal_to), ScalarType::int64}});
}
