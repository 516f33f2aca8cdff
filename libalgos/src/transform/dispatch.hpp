// Transform's host dispatch over the bound kernel (dispatch.cu, built by nvcc): CUB's
// transform dispatch (core/transform_dispatch.hpp) with the spec's operator. Private to
// libalgos.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/transform_dispatch.hpp"

namespace cccl_cache::algos::transform::detail {

// The transform kernel's: the bound kernel, the build's policy, the element sizes and
// CUB's launch configuration fixed at bind (core/transform_bind.hpp bind_params).
using DispatchParams = transform_kernel::detail::DispatchParams;

// One instantiation of CCCL 3.5's cub::detail::transform::dispatch per input count and
// per choice of array or iterator for each argument: element types only matter through
// DispatchParams (sizes) and the kernel's own compile. `d_in[k]` and `d_out` are arrays
// or the addresses of iterators' packed bytes (core/iterator.hpp iterator_address).
// Launches through params.launch, the operator argument copied from `op_state`
// (detail::op_state_arg); returns CUDA_ERROR_INVALID_VALUE if num_items exceeds
// INT64_MAX or the launch configuration is not set, else the launch's error.
using DispatchFn = CUresult (*)(const DispatchParams& params, const void* const* d_in,
                                void* d_out, std::uint64_t num_items, CUstream stream,
                                const void* op_state) noexcept;
// `input_iterators`: num_inputs flags. Null for a num_inputs other than 1 or 2.
DispatchFn dispatch_for(int num_inputs, const bool* input_iterators, bool output_iterator) noexcept;

}  // namespace cccl_cache::algos::transform::detail
