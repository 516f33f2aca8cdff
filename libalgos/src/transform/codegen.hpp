// CUDA C++ source generation for a transform spec: its build steps, and the transform
// kernel's source for any operator (binary search's too). Private to libalgos.
#pragma once

#include <span>
#include <string_view>

#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/build.hpp"

namespace cccl_cache::algos::transform::detail {

// The source naming CUB's transform_kernel as cub::DeviceTransform instantiates it for
// raw pointers (transform_kernel<policy_selector_from_types<false, true, tuple<const
// In*...>, Out*>, int64_t, always_true, cccl_cache_op, Out*, const In*...>) and the
// policy probe (values in Policy's field order). `op_definition` defines the functor
// type `cccl_cache_op`; `header`, if not empty, is included before it.
algos::detail::GeneratedSource kernel_source(std::span<const ScalarType> in, ScalarType out,
                                             std::string_view op_definition,
                                             std::string_view header = {});

}  // namespace cccl_cache::algos::transform::detail

template <int N>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::Transform<N>> {
  // `spec` must be valid (any operator kind is spelled, for key digests). The source
  // defines the operator functor `cccl_cache_op` (kernel_source).
  static GeneratedSource source(const transform::Spec<N>& spec);
};
