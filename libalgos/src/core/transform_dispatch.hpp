// CUB's transform host dispatch over the bound transform kernel, as far as every
// algorithm on it shares it (transform, binary search): its parameters fixed at bind and
// CUB's launch configuration. The dispatch itself is core/transform_dispatch.cuh (nvcc),
// the bind that fills the parameters in core/transform_bind.hpp. Private to libalgos.
#pragma once

#include <cuda.h>

#include "cccl_cache/algos/core/transform_kernel.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::transform_kernel::detail {

// CUB's launch configuration for the kernel (dispatch_transform.cuh's async_config /
// prefetch_config), which CUB computes once per process: here once per bind.
struct LaunchConfig {
  bool set = false;
  int items_per_thread = 0;  // async algorithms only
  int max_occupancy = 0;
  int sm_count = 0;
};

// Everything CUB's transform dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  const algos::detail::LaunchContext* launch = nullptr;  // the bound kernel, device facts
  Policy policy;
  int num_inputs = 0;
  int in_size[2] = {0, 0};   // element sizes of the inputs
  int in_align[2] = {0, 0};  // and their alignments (a scalar's: its size)
  int out_size = 0;
  LaunchConfig async_config;     // ldgsts / ublkcp
  LaunchConfig prefetch_config;  // prefetch / vectorized
};

// Fills params.async_config / prefetch_config by running CUB's own configuration code
// (its determine_element_counts / determine_config) once over `dry`, the bound launch
// context of a bind's dry run (core/executable_state.hpp dry_run: no launch function,
// occupancies for dynamic shared memory sizes from the driver). Returns
// CUDA_ERROR_INVALID_VALUE where no configuration came out.
CUresult configure(DispatchParams& params, const algos::detail::LaunchContext& dry) noexcept;

}  // namespace cccl_cache::algos::transform_kernel::detail
