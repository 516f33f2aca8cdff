// Binary search's host dispatch over the bound CUfunction (dispatch.cu, built by nvcc):
// CUB's transform dispatch with DeviceFind's search operator. Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "core/iterator.hpp"
#include "core/transform_dispatch.hpp"

namespace cccl_cache::algos::binary_search::detail {

// A sorted range given as an iterator: the search operator holds its packed bytes
// (core/iterator.hpp IteratorArg) in this many bytes, then the count at this offset and
// the comparator 16 bytes further (codegen.cpp's cccl_cache_op, dispatch.cu's packing).
inline constexpr std::size_t kRangeBytes = sizeof(algos::detail::IteratorArg::bytes);

// The transform kernel's: the bound kernel, the build's policy, the element sizes and
// CUB's launch configuration fixed at bind (core/transform_bind.hpp bind_params).
using DispatchParams = transform_kernel::detail::DispatchParams;

// What DeviceFind::LowerBound / UpperBound do with 64-bit counts, for an out type.
// d_temp_storage == nullptr: sets temp_storage_bytes to 1 (DeviceFind's answer).
// Otherwise launches the transform kernel over d_values with the search operator over
// (d_data, num_items) through params.launch. Returns CUDA_ERROR_INVALID_VALUE for
// a count over INT64_MAX, num_items over the out type's maximum, a null pointer with a
// nonzero count or a too small temp storage, or the launch's error. A stateful
// comparator's `state_size` bytes at `op_state` (detail::op_state_arg) are copied into the
// search operator the kernel takes; a stateless one has state_size 0.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_data,
                                std::uint64_t num_items, const void* d_values,
                                std::uint64_t num_values, void* d_out, CUstream stream,
                                std::uint32_t state_size, const void* op_state) noexcept;

// The dispatch for `out_type` (int32, uint32, int64 or uint64; it reads no element: one
// for every element type and both sides), or nullptr; `values_iterator`,
// `output_iterator`, `data_iterator`: d_values, d_out, d_data the addresses of those
// iterators' packed bytes. closed_form false: the dispatch answering size queries as
// DeviceFind does, the reference the closed form is tested equal to
// (test_binary_search_dispatch).
DispatchFn select_dispatch(ScalarType out_type, bool closed_form = true,
                           bool values_iterator = false, bool output_iterator = false,
                           bool data_iterator = false) noexcept;

}  // namespace cccl_cache::algos::binary_search::detail
