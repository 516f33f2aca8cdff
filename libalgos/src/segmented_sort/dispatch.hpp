// CUB's segmented-sort host dispatch driven by bound CUfunctions (dispatch.cu, built by
// nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/segmented_sort/executable.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::segmented_sort::detail {

// The block size the dispatch launches each kernel with (build_result.hpp Kernel): the
// fallback and large-segment kernels at the large segments' block, the small (and
// medium) segment kernel at the small segments' block.
inline std::array<std::uint32_t, kKernelCount> launch_threads(const Policy& p) noexcept {
  return {p.large_threads, p.small_threads, p.large_threads, kPartitionInitThreads,
          p.partition_threads};
}

// Everything CUB's dispatch asks of its policy selectors, kernel sources and launcher
// factory, fixed at bind time.
struct DispatchParams {
  const algos::detail::LaunchContext* launch = nullptr;  // kernels in Kernel order
  Policy policy;
};

// One instantiation of CCCL 3.5's cub::detail::segmented_sort::dispatch (what
// DeviceSegmentedSort::SortKeys / SortPairs call, with is_overwrite_okay false) for a
// (key size, value size, offset type). d_temp_storage == nullptr sets temp_storage_bytes:
// CUB's answer, in closed form from the bound policy (no dispatch, no driver call).
// Otherwise sorts every segment [d_begin[i], d_end[i]) of the keys (and values) into the
// outputs; above the policy's partitioning threshold CUB partitions the segments by size
// first and copies the two group sizes to the host, waiting on `stream` for them.
// Returns CUDA_ERROR_INVALID_VALUE for num_items or num_segments above INT64_MAX or too
// little temp storage, else the first launch, copy or wait error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_keys_in,
                                void* d_keys_out, const void* d_values_in, void* d_values_out,
                                std::uint64_t num_items, std::uint64_t num_segments,
                                const void* d_begin_offsets, const void* d_end_offsets,
                                CUstream stream) noexcept;

// nullptr for sizes other than 1/2/4/8 (values also 0) or an offset not int32, uint32,
// int64 or uint64. closed_form false: the same dispatch answering every size query
// through CUB's whole host dispatch, the reference the closed form is tested equal to
// (test_segmented_sort_dispatch).
DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                           bool closed_form = true) noexcept;

// The policy CUB's selectors pick for `spec` on sm_<cc>, evaluated on the host (the
// fields the host dispatch reads; a build probes the device compile's own).
Policy selected_policy(const Spec& spec, std::uint32_t cc) noexcept;

}  // namespace cccl_cache::algos::segmented_sort::detail
