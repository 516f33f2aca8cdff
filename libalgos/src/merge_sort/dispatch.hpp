// CUB's merge-sort host dispatch driven by bound CUfunctions (dispatch.cu, built by
// nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::merge_sort::detail {

// CUB's merge-sort dispatch launches the partition kernel with this many threads per
// block (its threads_per_partition_block); the other two kernels use the policy's
// block_threads.
inline constexpr std::uint32_t kPartitionBlockThreads = 256;

// Everything CUB's merge-sort dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch, the device facts.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's
};

// One instantiation of CCCL 3.5's cub::detail::merge_sort::dispatch for a (key size,
// value size, offset type). d_temp_storage == nullptr: sets temp_storage_bytes to CUB's
// answer, in closed form from the bound policy (no dispatch, no driver call): CUB's
// alias_temporaries over three allocations (merge partitions, key buffer, value buffer;
// the fourth, virtual shared memory, is empty with runtime policies), and one byte for
// zero items (CUB's convention since 3.x: a non-null pointer marks the second phase).
// Otherwise launches the three kernels through params.launch (cuLaunchKernelEx), their
// comparator argument copied from `op_state` (detail::op_state_arg).
// Returns CUDA_ERROR_NOT_SUPPORTED if !policy_supported(params), CUDA_ERROR_INVALID_VALUE
// if num_items exceeds the offset type or the temp storage is too small, or the first
// launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_keys_in,
                                const void* d_values_in, void* d_keys_out, void* d_values_out,
                                std::uint64_t num_items, CUstream stream,
                                const void* op_state) noexcept;

// The instantiation for these sizes (value_size 0: keys only), or nullptr when
// unsupported (a key size not in kStructSizes, a value size neither 0 nor in it, a
// non-integer offset).
// closed_form false: the same dispatch answering size queries through CUB's whole host
// dispatch, the reference the closed form is tested equal to (test_temp_storage).
// iterators: the inputs are the addresses of packed iterators (Spec::iterators; scalar
// sizes only), which the dispatch hands to the kernels as they are; a keys-only sort
// passes no values (nullptr, as DeviceMergeSort::SortKeys does).
DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                           bool closed_form = true, bool iterators = false) noexcept;
// Whether the dispatch can run this policy: a tile shape of whole threads and no
// virtual shared memory (CCCL 3.5's dispatch with runtime policies allocates none; the
// supported 1..8-byte keys and values never need it).
bool policy_supported(const DispatchParams& params) noexcept;

}  // namespace cccl_cache::algos::merge_sort::detail
