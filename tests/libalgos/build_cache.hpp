// Builds each (spec, cc) once per test process: an NVRTC build costs seconds.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "merge_sort/build_detail.hpp"

namespace test_support {

inline const cccl_cache::Result<cccl_cache::algos::merge_sort::detail::BuildReport>& cached_build(
    const cccl_cache::algos::merge_sort::Spec& spec, std::uint32_t cc) {
  using Report = cccl_cache::Result<cccl_cache::algos::merge_sort::detail::BuildReport>;
  static std::mutex mu;
  static std::map<std::string, Report> cache;
  const std::string key = cccl_cache::algos::merge_sort::summary(spec) + "|" +
                          spec.comparator.source + "|" + std::to_string(cc);
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, cccl_cache::algos::merge_sort::detail::build_with_report(spec, cc))
             .first;
  return it->second;
}

}  // namespace test_support
