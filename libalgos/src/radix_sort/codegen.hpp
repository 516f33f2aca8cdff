// CUDA C++ source generation and the build stages of a radix sort. Private to libalgos.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/radix_sort/build_result.hpp"
#include "core/build.hpp"
#include "core/jit.hpp"

namespace cccl_cache::algos::radix_sort::detail {

// `spec` must be valid. Includes CUB's radix-sort kernel header only and names the six
// kernels CUB's dispatch launches for a onesweep or a multi-pass policy (Kernel slot
// order), instantiated as DeviceRadixSortKernelSource does with CUB's default policy
// selector (policy_selector_from_types<Key, Value, Offset>), and the policy probe (values
// in Policy's field order).
algos::detail::GeneratedSource generate_source(const Spec& spec, bool onesweep);

using BuildReport = algos::detail::BuildReport<RadixSort>;

// Everything build() does, plus the intermediate sizes.
Result<BuildReport> build_with_report(const Spec& spec, std::uint32_t cc);

}  // namespace cccl_cache::algos::radix_sort::detail
