// Builds each (algorithm, spec, cc) once per test process: an NVRTC build costs
// seconds. Tests of one binary share builds through it.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "histogram_even/codegen.hpp"
#include "binary_search/codegen.hpp"
#include "merge_sort/codegen.hpp"
#include "radix_sort/codegen.hpp"
#include "segmented_sort/codegen.hpp"
#include "reduce/codegen.hpp"
#include "scan/codegen.hpp"
#include "scan_by_key/codegen.hpp"
#include "for_each/codegen.hpp"
#include "segmented_reduce/codegen.hpp"
#include "select/codegen.hpp"
#include "three_way_partition/codegen.hpp"
#include "transform/codegen.hpp"
#include "unique_by_key/codegen.hpp"

namespace test_support {

template <class Spec>
const auto& cached_build(const Spec& spec, std::uint32_t cc) {
  using A = typename Spec::Algorithm;
  using Report = decltype(cccl_cache::algos::detail::build_with_report<A>(spec, cc));
  static std::mutex mu;
  static std::map<std::pair<std::vector<std::byte>, std::uint32_t>, Report> cache;
  auto key = std::pair{cccl_cache::algos::encode_fields(spec), cc};
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, cccl_cache::algos::detail::build_with_report<A>(spec, cc)).first;
  return it->second;
}

// The built result of `spec` for `cc`, or the build's error thrown (gtest reports it as
// the failure of the test that asked).
template <class Spec>
const auto& built_or_throw(const Spec& spec, std::uint32_t cc) {
  const auto& r = cached_build(spec, cc);
  if (!r) throw std::runtime_error(r.error().describe());
  return r->result;
}

// Specs `which` of `specs` build for sm_80 and sm_90 (the records' checks pass), each
// with `kernels` kernels.
template <class Spec>
void expect_builds_for_sm80_and_sm90(const std::vector<Spec>& specs,
                                     std::initializer_list<std::size_t> which, std::size_t kernels) {
  for (const std::size_t i : which) {
    for (const std::uint32_t cc : {80u, 90u}) {
      SCOPED_TRACE(cccl_cache::algos::summary(specs.at(i)) + " sm_" + std::to_string(cc));
      const auto& r = cached_build(specs.at(i), cc);
      ASSERT_TRUE(r) << r.error().describe();
      EXPECT_EQ(r->result.record.kernels.size(), kernels);
    }
  }
}

}  // namespace test_support
