// CUDA C++ source generation for a segmented reduce spec: its build steps. Private to
// libalgos.
#pragma once

#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::SegmentedReduce> {
  // `spec` must be valid. Includes CUB's segmented reduce kernel header only, defines the
  // operator `cccl_cache_op` (an alias of CUB's function object for a well-known kind),
  // CUB's accumulator for it and DeviceSegmentedReduce's policy selector, and names the
  // kernel DeviceSegmentedReduce::Reduce launches, and the policy probe (values in
  // Policy's field order).
  static GeneratedSource source(const segmented_reduce::Spec& spec);
};
