// CUDA C++ source generation for a transform spec: its build steps. Private to libalgos.
#pragma once

#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/build.hpp"

template <int N>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::Transform<N>> {
  // `spec` must be valid (any operator kind is spelled, for key digests). The source
  // defines the operator functor `cccl_cache_op` and names CUB's transform_kernel as
  // cub::DeviceTransform::Transform instantiates it for raw pointers
  // (transform_kernel<policy_selector_from_types<false, true, tuple<const In*...>, Out*>,
  // int64_t, always_true, cccl_cache_op, Out*, const In*...>) and the policy probe
  // (values in Policy's field order).
  static GeneratedSource source(const transform::Spec<N>& spec);
};
