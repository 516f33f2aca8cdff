// three-way partition's host dispatch over the bound CUfunctions (dispatch.cu, built by
// nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::three_way_partition::detail {

// Everything CUB's three-way partition dispatch asks of its policy selector, kernel
// source and launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's
};

// One instantiation of CCCL 3.5's cub::detail::three_way_partition::dispatch (what
// DevicePartition::If with two predicates calls) for an offset type. d_temp_storage ==
// nullptr: sets temp_storage_bytes, in closed form from the bound policy (no driver
// call). Otherwise, per partition of at most INT32_MAX items, launches the init kernel
// then the partition kernel through params.launch, its two predicate arguments copied
// from `first_op_state` and `second_op_state` (detail::op_state_arg). Returns
// CUDA_ERROR_INVALID_VALUE for a count the offset type cannot hold or a too small temp
// storage, or the first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_in,
                                void* d_first_part_out, void* d_second_part_out,
                                void* d_unselected_out, void* d_num_selected_out,
                                std::uint64_t num_items, CUstream stream,
                                const void* first_op_state, const void* second_op_state) noexcept;

// The dispatch for `offset_type` (int32 or int64; it reads no element: one for every item
// type), or nullptr; `iterators`: the one whose input and outputs are all iterators,
// d_in and each output then the address of an iterator's packed bytes (Spec::iterators).
// closed_form false: CUB's dispatch answering size queries itself, the reference the
// closed form is tested equal to (test_three_way_partition_dispatch).
DispatchFn select_dispatch(ScalarType offset_type, bool closed_form = true,
                           bool iterators = false) noexcept;

}  // namespace cccl_cache::algos::three_way_partition::detail
