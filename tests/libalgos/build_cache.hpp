// Builds each (algorithm, spec, cc) once per test process: an NVRTC build costs
// seconds. Tests of one binary share builds through it.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/transform/build.hpp"
#include "merge_sort/build_detail.hpp"
#include "scan/build_detail.hpp"
#include "radix_sort/codegen.hpp"
#include "reduce/build_detail.hpp"

namespace test_support {

// How each algorithm builds with its report (one line per algorithm).
template <class A>
struct Builder;
template <>
struct Builder<cccl_cache::algos::MergeSort> {
  static auto report(const cccl_cache::algos::merge_sort::Spec& s, std::uint32_t cc) {
    return cccl_cache::algos::merge_sort::detail::build_with_report(s, cc);
  }
};

template <cccl_cache::algos::AlgorithmId Id>
struct Builder<cccl_cache::algos::Scan<Id>> {
  static auto report(const cccl_cache::algos::scan::Spec<Id>& s, std::uint32_t cc) {
    return cccl_cache::algos::scan::detail::build_with_report(s, cc);
  }
};

template <int N>
struct Builder<cccl_cache::algos::Transform<N>> {
  struct Report {
    cccl_cache::algos::transform::BuildResult<N> result;
  };
  static cccl_cache::Result<Report> report(const cccl_cache::algos::transform::Spec<N>& s,
                                           std::uint32_t cc) {
    auto r = cccl_cache::algos::transform::build<N>(s, cc);
    if (!r) return tl::unexpected(r.error());
    return Report{std::move(*r)};
  }
};

template <>
struct Builder<cccl_cache::algos::RadixSort> {
  static auto report(const cccl_cache::algos::radix_sort::Spec& s, std::uint32_t cc) {
    return cccl_cache::algos::radix_sort::detail::build_with_report(s, cc);
  }
};

template <>
struct Builder<cccl_cache::algos::Reduce> {
  static auto report(const cccl_cache::algos::reduce::Spec& s, std::uint32_t cc) {
    return cccl_cache::algos::reduce::detail::build_with_report(s, cc);
  }
};

template <class Spec>
const auto& cached_build(const Spec& spec, std::uint32_t cc) {
  using A = typename Spec::Algorithm;
  using Report = decltype(Builder<A>::report(spec, cc));
  static std::mutex mu;
  static std::map<std::pair<std::vector<std::byte>, std::uint32_t>, Report> cache;
  auto key = std::pair{cccl_cache::algos::encode_fields(spec), cc};
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, Builder<A>::report(spec, cc)).first;
  return it->second;
}

}  // namespace test_support
