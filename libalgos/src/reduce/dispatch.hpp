// CUB's reduce host dispatch driven by bound CUfunctions (dispatch.cu, built by nvcc),
// and the closed-form temp-storage size. Private to libalgos.
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
// offset type). d_temp_storage == nullptr: sets temp_storage_bytes (no driver call).
// Otherwise reduces d_in into d_out[0] with *h_init (element-size bytes) through
// params.launch: one single-tile launch, or the first pass and the second pass.
// Returns CUDA_ERROR_INVALID_VALUE if num_items exceeds the offset type or the temp
// storage is too small, or the first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                                std::uint64_t num_items, const void* h_init,
                                CUstream stream) noexcept;

// The instantiation, or nullptr (sizes not 1/2/4/8, offset not uint32/uint64).
DispatchFn select_dispatch(std::size_t type_size, std::size_t accum_size,
                           ScalarType offset_type) noexcept;

// The temp-storage size in closed form. Mirrors cub::detail::reduce::dispatch in CCCL
// 3.5: a problem of one single-pass tile asks 1 byte; otherwise one allocation of
// max_blocks = occupancy * SMs * subscription factor accumulators, rounded up to 256
// bytes, plus 255 bytes of alignment slack. test_reduce_dispatch checks it against the
// dispatch's own answer.
struct TempLayout {
  std::uint64_t single_tile_items = 0;  // threads * items of the single-tile pass
  std::uint64_t partials_bytes = 0;     // the multi-pass answer
  std::uint64_t max_items = 0;          // largest count the offset type holds

  std::size_t bytes(std::uint64_t num_items) const noexcept {
    if (num_items > max_items) return 0;
    return static_cast<std::size_t>(num_items <= single_tile_items ? 1 : partials_bytes);
  }
};

// The layout for an accumulator size, offset type and bound dispatch parameters.
TempLayout make_layout(std::size_t accum_size, ScalarType offset_type,
                       const DispatchParams& params) noexcept;

}  // namespace cccl_cache::algos::reduce::detail
