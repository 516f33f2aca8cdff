// CUDA C++ source generation for a merge sort spec: its build steps. Private to libalgos.
#pragma once

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::MergeSort> {
  // `spec` must be valid. The source static_asserts that NVRTC sees the pinned
  // CCCL_VERSION (the host dispatch's), includes CUB's kernel header only, defines the
  // empty comparator functor `cccl_cache_compare`, and names the three kernels (in
  // Kernel order) with DispatchMergeSort's template arguments and the policy probe
  // (values in Policy's field order).
  static GeneratedSource source(const merge_sort::Spec& spec);
  // Error unsupported: kernels that need virtual shared memory.
  static Result<void> accept(const merge_sort::Policy& policy);
};
