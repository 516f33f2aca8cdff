// histogram_even's host dispatch over the bound CUfunctions (dispatch.cu, built by nvcc).
// Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::histogram_even::detail {

// What a call's bounds mean in the spec's level and sample types (bind.cpp, host code).
// `lower`, `upper`: one level each, in host memory.
// lower < upper (false for NaN bounds).
using OrderedFn = bool (*)(const void* lower, const void* upper) noexcept;
// CUB's DeviceHistogramKernelSource::MayOverflow: whether (upper - lower) * num_bins
// overflows the integer arithmetic CUB bins integers in (false for floats).
using OverflowFn = bool (*)(int num_bins, const void* upper, const void* lower) noexcept;

// Everything CUB's histogram dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's
  OrderedFn ordered = nullptr;
  OverflowFn may_overflow = nullptr;
  std::uint32_t counter_size = 0;  // bytes of one bin
};

// One instantiation of CCCL 3.5's HistogramEven dispatch with device-side bin operators
// (cub::detail::histogram::__dispatch_even_device_init, one channel) for an offset type,
// level size and sample path. d_temp_storage == nullptr: sets temp_storage_bytes, in
// closed form from the bound policy and occupancies (no driver call). Otherwise launches
// the init kernel, then the sweep kernel with shared bins (at most 256 bins, or 1-byte
// samples) or with global ones, through params.launch. `h_lower` and `h_upper` point to
// one level each in host memory (a size query may pass null: no overflow check). Returns
// CUDA_ERROR_INVALID_VALUE for a count the offset type cannot hold, bounds CUB's integer
// arithmetic overflows on (temp_storage_bytes 1 for a size query, as CUB) or a too small
// temp storage, or the first launch error. The caller checks num_levels >= 2 and
// lower < upper.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_samples,
                                void* d_histogram, int num_levels, const void* h_lower,
                                const void* h_upper, std::uint64_t num_samples,
                                CUstream stream) noexcept;

// The dispatch for `offset_type` (int32 or int64), levels of `level_size` bytes (1, 2, 4
// or 8) and CUB's byte-sample path or not (it reads no sample: one for every sample
// type of a size class), or nullptr; `samples_iterator`: d_samples the address of the
// samples iterator's packed bytes. closed_form false: CUB's dispatch answering size
// queries itself, the reference the closed form is tested equal to
// (test_histogram_even_dispatch).
DispatchFn select_dispatch(ScalarType offset_type, std::size_t level_size, bool byte_samples,
                           bool closed_form = true, bool samples_iterator = false) noexcept;

// The checks of bounds in `levels` (the spec's level type) against samples of type
// `samples` (bind.cpp); nullptr for types validate() rejects.
OrderedFn select_ordered(ScalarType levels) noexcept;
OverflowFn select_may_overflow(ScalarType levels, ScalarType samples) noexcept;

}  // namespace cccl_cache::algos::histogram_even::detail
