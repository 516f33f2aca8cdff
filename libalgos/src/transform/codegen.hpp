// CUDA C++ source generation for a transform spec: its build steps. Private to libalgos.
#pragma once

#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/build.hpp"

template <int N>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::Transform<N>> {
  // `spec` must be valid (any operator kind is spelled, for key digests). The source
  // defines the operator functor `cccl_cache_op` and names the transform kernel over it
  // (core/transform_kernel.hpp kernel_source).
  static GeneratedSource source(const transform::Spec<N>& spec);
};
