// CUDA C++ source generation for a binary search spec: its build steps. Private to
// libalgos.
#pragma once

#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::BinarySearch> {
  // `spec` must be valid. The source defines the comparator `cccl_cache_compare` and
  // the operator DeviceFind passes to DeviceTransform,
  //   cccl_cache_op = cub::detail::find::binary_search_transform_op_t<const T*,
  //                   unsigned long long, cccl_cache_compare, lower_bound | upper_bound>,
  // or, for a range given as an iterator, a struct of the same search over it (its bytes
  // as dispatch.hpp kRangeBytes describes), and names the transform kernel over it
  // (core/transform_kernel.hpp kernel_source).
  static GeneratedSource source(const binary_search::Spec& spec);
};
