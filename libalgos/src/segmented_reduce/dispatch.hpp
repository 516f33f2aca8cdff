// CUB's segmented reduce host dispatch driven by the bound CUfunction (dispatch.cu,
// built by nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::segmented_reduce::detail {

// Everything CUB's segmented reduce dispatch asks of its policy selector, kernel source
// and launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernel (its occupancy at
  // `threads`), the driver's launch.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's
};

// One instantiation of CCCL 3.5's cub::detail::segmented_reduce::dispatch (what
// DeviceSegmentedReduce::Reduce calls) for an (element size, offset type).
// d_temp_storage == nullptr: sets temp_storage_bytes as CUB does (1 for a positive
// count, untouched for none; no driver call). Otherwise reduces each segment
// [d_begin[i], d_end[i]) of d_in with *h_init (element-size bytes) into d_out[i]
// through params.launch: one launch per 2^31-1 segments, each one's operator argument
// copied from `op_state` (detail::op_state_arg). Returns
// CUDA_ERROR_INVALID_VALUE for num_segments above INT64_MAX or a null h_init, or the
// first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                                std::uint64_t num_segments, const void* d_begin_offsets,
                                const void* d_end_offsets, const void* h_init,
                                std::uint64_t max_segment_size, CUstream stream,
                                const void* op_state) noexcept;

// The instantiation, or nullptr (size not 1/2/4/8, offset not a 4 or 8-byte integer):
// over arrays, or where `iterators` over the four arguments as iterators (d_in, d_out,
// d_begin_offsets and d_end_offsets then address their packed bytes).
DispatchFn select_dispatch(std::size_t type_size, ScalarType offset_type,
                           bool iterators = false) noexcept;

// The temp-storage size in closed form: CCCL 3.5's dispatch asks 1 byte for any positive
// number of segments (the kernel keeps everything in shared memory) and writes nothing
// for zero; answered as 1 for every count it takes (so an allocation is never empty), 0
// above INT64_MAX. test_segmented_reduce_dispatch checks it against the dispatch's own.
constexpr std::size_t temp_storage_bytes(std::uint64_t num_segments) noexcept {
  return num_segments <= static_cast<std::uint64_t>(INT64_MAX) ? 1 : 0;
}

}  // namespace cccl_cache::algos::segmented_reduce::detail
