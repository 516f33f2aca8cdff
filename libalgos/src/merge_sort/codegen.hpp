// CUDA C++ source generation for a merge sort spec. Private to libalgos.
#pragma once

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "core/jit.hpp"

namespace cccl_cache::algos::merge_sort::detail {

// `spec` must be valid. The source static_asserts that NVRTC sees the pinned
// CCCL_VERSION (the host dispatch's), includes CUB's kernel header only, defines the
// empty comparator functor `cccl_cache_compare`, and names the three kernels (in
// Kernel order) with DispatchMergeSort's template arguments and the policy probe
// (values in Policy's field order).
algos::detail::GeneratedSource generate_source(const Spec& spec);

}  // namespace cccl_cache::algos::merge_sort::detail
