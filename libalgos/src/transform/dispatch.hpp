// CUB's transform host dispatch driven by the bound kernel (dispatch.cu, built by nvcc).
// Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>

#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::transform::detail {

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
  int in_size[2] = {0, 0};  // element sizes (= alignments) of the inputs
  int out_size = 0;
  LaunchConfig async_config;     // ldgsts / ublkcp
  LaunchConfig prefetch_config;  // prefetch / vectorized
};

// One instantiation of CCCL 3.5's cub::detail::transform::dispatch per input count:
// element types only matter through DispatchParams (sizes) and the kernel's own
// compile. Launches through params.launch, the operator argument copied from
// `op_state` (detail::op_state_arg); returns CUDA_ERROR_INVALID_VALUE if num_items
// exceeds INT64_MAX or the launch configuration is not set, else the launch's error.
using DispatchFn = CUresult (*)(const DispatchParams& params, const void* const* d_in,
                                void* d_out, std::uint64_t num_items, CUstream stream,
                                const void* op_state) noexcept;
DispatchFn dispatch_for(int num_inputs) noexcept;

// Fills params.async_config / prefetch_config by running CUB's own configuration code
// (its determine_element_counts / determine_config) once over `dry`, the bound launch
// context of a bind's dry run (core/executable_state.hpp dry_run: no launch function,
// occupancies for dynamic shared memory sizes from the driver). Returns
// CUDA_ERROR_INVALID_VALUE where no configuration came out.
CUresult configure(DispatchParams& params, const algos::detail::LaunchContext& dry) noexcept;

}  // namespace cccl_cache::algos::transform::detail
