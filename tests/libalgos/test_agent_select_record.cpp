// The record checks the algorithms on CUB's agent-select kernels share
// (src/core/agent_select.hpp), for each of them: a policy that differs from the kernels'
// launch bounds, implausible values or swapped kernel names pass the blob grammar and
// must still be rejected as corrupt.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "record_cases.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

template <class A>
class AgentSelectRecord : public ::testing::Test {};
using AgentSelectAlgorithms = ::testing::Types<UniqueByKey, Select>;
TYPED_TEST_SUITE(AgentSelectRecord, AgentSelectAlgorithms);

TYPED_TEST(AgentSelectRecord, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  using BuildResult = Built<TypeParam>;
  const std::string implausible = "implausible " + std::string(algorithm_name(TypeParam::Spec::kAlgorithm));
  const test_support::CorruptCase<TypeParam> cases[] = {
      {"threads doubled", [](BuildResult& r) { r.policy.threads *= 2; }, "sweep"},
      {"no items", [](BuildResult& r) { r.policy.items = 0; }, implausible},
      {"too many items", [](BuildResult& r) { r.policy.items = 257; }, implausible},
      {"virtual shared memory", [](BuildResult& r) { r.policy.vsmem_per_block = 64; }, implausible},
      {"swapped kernels", [](BuildResult& r) { std::swap(r.record.kernels[0], r.record.kernels[1]); }, "init"},
      {"another kernel's name", [](BuildResult& r) { r.record.kernels[1] = "_Z3foov"; }, "not in the cubin"},
  };
  test_support::expect_corrupt<TypeParam>(test_support::built_or_throw(typename TypeParam::Spec{}, 90), cases);
}
