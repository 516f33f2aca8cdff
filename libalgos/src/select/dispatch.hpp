// select's host dispatch over the bound CUfunctions (dispatch.cu, built by nvcc). Private
// to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/select/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::select::detail {

// Everything the dispatch needs, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's
};

// CCCL 3.5's cub::detail::select::dispatch_policy for DeviceSelect::If (what
// DeviceSelect::If calls: int64 count, partitions of at most INT32_MAX items rounded
// down to whole tiles) over the bound kernels; CCCL 3.5's select dispatch takes no
// kernel source, so dispatch.cu mirrors it with CUB's own host pieces (tile state,
// streaming context, alias_temporaries). d_temp_storage == nullptr: sets
// temp_storage_bytes, in closed form from the bound policy (no driver call). Otherwise,
// per partition, launches the init kernel then the sweep kernel through params.launch,
// the sweep's predicate argument copied from `op_state` (detail::op_state_arg).
// Returns CUDA_ERROR_INVALID_VALUE for more than INT64_MAX items or a too small temp
// storage, or the first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                                void* d_num_selected_out, std::uint64_t num_items,
                                CUstream stream, const void* op_state) noexcept;

// The dispatch (it reads no element: one for every item type; one per choice of array or
// iterator for the input and the output, d_in and d_out then the addresses of the
// iterators' packed bytes). closed_form false: the same dispatch answering size queries
// with CUB's own allocation arithmetic (ScanTileState::AllocationSize,
// alias_temporaries), the reference the closed form is tested equal to
// (test_select_dispatch).
DispatchFn select_dispatch(bool closed_form = true, bool input_iterator = false,
                           bool output_iterator = false) noexcept;

}  // namespace cccl_cache::algos::select::detail
