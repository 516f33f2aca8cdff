// CUB's reduce host dispatch driven by bound CUfunctions (dispatch.cu, built by nvcc).
// Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/types.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::reduce::detail {

// Everything CUB's reduce dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order
  // (the first pass's occupancy at multi_tile_threads), the driver's launch, SM count.
  const algos::detail::LaunchContext* launch = nullptr;
  int multi_tile_threads = 0;
  int multi_tile_items = 0;
  int single_tile_threads = 0;
  int single_tile_items = 0;
};

// One instantiation of CCCL 3.5's cub::detail::reduce::dispatch (run-to-run
// deterministic, as DeviceReduce::Reduce) for an (element size, accumulator size,
// offset type). d_temp_storage == nullptr: sets temp_storage_bytes to CUB's answer, in
// closed form from the bound policy, SM count and first pass's occupancy (no dispatch,
// no driver call): a problem of one single-pass tile asks 1 byte; otherwise one
// allocation of max_blocks = occupancy * SMs * subscription factor accumulators, rounded
// up to 256 bytes, plus 255 bytes of alignment slack. Otherwise reduces d_in into
// d_out[0] with *h_init (element-size bytes) through params.launch: one single-tile
// launch, or the first pass and the second pass; every launch's operator argument is
// copied from `op_state` (detail::op_state_arg). Returns CUDA_ERROR_INVALID_VALUE if
// num_items exceeds the offset type, the temp storage is too small or h_init is null,
// or the first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                                std::uint64_t num_items, const void* h_init,
                                CUstream stream, const void* op_state) noexcept;

// The instantiation, or nullptr (sizes not 1/2/4/8, except a struct's 12, 16, 24 or 32
// bytes with an accumulator of its own size and an array input and output; offset not uint32/uint64).
// closed_form false: the same dispatch answering size queries through CUB's whole host
// dispatch, the reference the closed form is tested equal to (test_reduce_dispatch).
// iterator_input: the spec's input is an iterator, and `d_in` the host address of its
// packed bytes (core/iterator.hpp IteratorArg), which every launch's input argument is
// copied from; iterator_output likewise for the output and `d_out` (the kernels that
// write the result: the single tile's, or the second pass's).
DispatchFn select_dispatch(std::size_t type_size, std::size_t accum_size, ScalarType offset_type,
                           bool closed_form = true, bool iterator_input = false,
                           bool iterator_output = false) noexcept;
}  // namespace cccl_cache::algos::reduce::detail
