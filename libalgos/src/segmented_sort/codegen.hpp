// CUDA C++ source generation for a segmented sort spec: its build steps. Private to
// libalgos.
#pragma once

#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::SegmentedSort> {
  // `spec` must be valid. Includes CUB's segmented-sort and three-way-partition kernel
  // headers, names the five kernels cub::detail::segmented_sort::dispatch launches (Kernel
  // order) instantiated as its default kernel sources do for `const Offset*` offset
  // iterators with CUB's default policy selectors, and the policy probe (values in
  // Policy's field order).
  static GeneratedSource source(const segmented_sort::Spec& spec);
};
