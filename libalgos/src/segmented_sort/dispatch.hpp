// CUB's segmented-sort host dispatch driven by bound CUfunctions (dispatch.cu, built by
// nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/segmented_sort/executable.hpp"
#include "core/iterator.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::segmented_sort::detail {

// The block size the dispatch launches each kernel with (build_result.hpp Kernel): the
// fallback and large-segment kernels at the large segments' block, the small (and
// medium) segment kernel at the small segments' block.
inline std::array<std::uint32_t, kKernelCount> launch_threads(const Policy& p) noexcept {
  return {p.large_threads, p.small_threads, p.large_threads, kPartitionInitThreads,
          p.partition_threads};
}

// Where CUB's Large/SmallSegmentsSelectorT<OffsetT, Begin, End> (a kernel argument of the
// partition) holds its members over offset iterators of these extents, at[0..3]: {OffsetT
// value; Begin begin; End end; global_segment_offset_t base_segment_offset}
// (natural_layout). The build static_asserts the device's sizes and alignments of the
// iterators and the selectors (codegen.cpp); the dispatch packs each call's selectors so
// (dispatch.cu).
struct SelectorLayout {
  std::size_t at[4] = {};
  algos::detail::ArgumentExtent extent;
};
inline SelectorLayout selector_layout(std::size_t offset_size, algos::detail::ArgumentExtent begin,
                                      algos::detail::ArgumentExtent end) noexcept {
  const algos::detail::ArgumentExtent members[] = {
      {offset_size, offset_size}, begin, end, {sizeof(std::uint64_t), alignof(std::uint64_t)}};
  SelectorLayout l;
  l.extent = algos::detail::natural_layout(members, l.at);
  return l;
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
// (test_segmented_sort_dispatch). iterators: the spec's iterators(); d_begin_offsets and
// d_end_offsets are then each the address of a PackedIterator (core/iterator.hpp: an
// array packed as an array iterator).
DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                           bool closed_form = true, bool iterators = false) noexcept;

}  // namespace cccl_cache::algos::segmented_sort::detail
