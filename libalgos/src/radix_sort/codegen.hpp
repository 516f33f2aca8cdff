// CUDA C++ source generation for a radix sort spec, and its build steps. Private to
// libalgos.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/radix_sort/build_result.hpp"
#include "core/build.hpp"
#include "radix_sort/dispatch.hpp"

namespace cccl_cache::algos::radix_sort::detail {

// `spec` must be valid. Includes CUB's radix-sort kernel header only and names the six
// kernels CUB's dispatch launches for a onesweep or a multi-pass policy (Kernel slot
// order), instantiated as DeviceRadixSortKernelSource does with CUB's default policy
// selector (policy_selector_from_types<Key, Value, Offset>), and the policy probe (values
// in Policy's field order).
algos::detail::GeneratedSource generate_source(const Spec& spec, bool onesweep);

}  // namespace cccl_cache::algos::radix_sort::detail

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::RadixSort> {
  // Both kernel sets: which one a build compiles follows from the CC, which keys hold
  // (the values_in kernel once, after the multi-pass set).
  static GeneratedSource source(const radix_sort::Spec& spec) {
    auto gen = radix_sort::detail::generate_source(spec, false);
    auto onesweep = radix_sort::detail::generate_source(spec, true);
    gen.kernels.insert(gen.kernels.end(), onesweep.kernels.begin(),
                       onesweep.kernels.begin() + radix_sort::kSlots);
    return gen;
  }
  // CUB's selector on the host names the kernels; the probe and check() confirm it.
  static GeneratedSource source_for(const radix_sort::Spec& spec, std::uint32_t cc) {
    return radix_sort::detail::generate_source(spec, radix_sort::detail::selects_onesweep(spec, cc));
  }
};
