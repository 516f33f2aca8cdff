// CCCL 3.5's merge-sort host dispatch (cub::detail::merge_sort::dispatch, the
// policy-selector dispatch; its host code compiled here by nvcc) driven by the kernels
// a bind resolved, through the core's launcher factory (core/launch.cuh), with the
// build's policy values as a run-time policy selector.
//
// The device kernels were instantiated by the build (codegen.cpp) as
//   DeviceMergeSortBlockSortKernel<policy_selector_from_types<K*>, K*, V*, K*, V*, OffsetT,
//                                  cccl_cache_compare, K, V>
// etc. with an empty comparator struct and cub::NullType values for keys-only sorts.
// Host-side stand-ins with the same size and alignment give the dispatch the same
// argument layout; nothing here depends on what the keys are (a struct of 12..32 bytes
// is bytes of its size too). With run-time policies CUB allocates no virtual shared
// memory, so policies that need it (types too large for shared memory) are refused.
// Where the spec has an input iterator, the two kernels that read the inputs take both
// as generated iterator structs, and the dispatch passes each call's packed bytes
// (IterArg) as they are; the outputs, which the sort also uses as buffers, stay arrays.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_merge_sort.cuh>

#include <climits>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "core/temp_storage.hpp"
#include "merge_sort/dispatch.hpp"

namespace cccl_cache::algos::merge_sort::detail {
namespace {

using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
using algos::detail::OpArg;

// The build already chose the policy for the target CC: only the tile shape matters
// to the host dispatch; the rest is what CUB's own selector returns (documentation).
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::MergeSortPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    return cub::MergeSortPolicy{static_cast<int>(p.block_threads),
                                static_cast<int>(p.items_per_tile / p.block_threads),
                                cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                cub::BLOCK_STORE_WARP_TRANSPOSE};
  }
};

template <std::size_t K, std::size_t V>
struct BoundKernels {
  const DispatchParams* params;
  CUfunction kernel(Kernel k) const { return params->launch->kernels[k].function; }
  CUfunction MergeSortBlockSortKernel() const { return kernel(block_sort_kernel); }
  CUfunction MergeSortPartitionKernel() const { return kernel(partition_kernel); }
  CUfunction MergeSortMergeKernel() const { return kernel(merge_kernel); }
  static constexpr std::size_t KeySize() { return K; }
  static constexpr std::size_t ValueSize() { return V; }
};

// Iterators: the inputs as IterArg (each the address of an iterator's packed bytes; no
// values for keys-only), else K* and V* arrays.
template <std::size_t K, std::size_t V, class OffsetT, bool Iterators>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_keys_in,
                      const void* d_values_in, void* d_keys_out, void* d_values_out,
                      std::uint64_t num_items, CUstream stream, const void* op_state) noexcept {
  using KeyT = Bytes<K>;
  using ValueT = std::conditional_t<V == 0, cub::NullType, Bytes<V>>;
  using KeyIn = std::conditional_t<Iterators, algos::detail::IterArg, KeyT*>;
  using ValueIn = std::conditional_t<Iterators && V != 0, algos::detail::IterArg, ValueT*>;
  using algos::detail::iterator_arg;
  if (!policy_supported(params)) return CUDA_ERROR_NOT_SUPPORTED;
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  if constexpr (Iterators && V == 0) d_values_in = nullptr;
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err =
      cub::detail::merge_sort::dispatch<KeyIn, ValueIn, KeyT*, ValueT*, OffsetT, OpArg,
                                        RuntimePolicySelector, BoundKernels<K, V>,
                                        DriverLauncherFactory, KeyT, ValueT>(
          d_temp_storage, temp_storage_bytes, iterator_arg<KeyIn, KeyT>(d_keys_in),
          iterator_arg<ValueIn, ValueT>(d_values_in), static_cast<KeyT*>(d_keys_out),
          static_cast<ValueT*>(d_values_out), static_cast<OffsetT>(num_items), OpArg{op_state},
          stream, RuntimePolicySelector{&params}, BoundKernels<K, V>{&params},
          DriverLauncherFactory{params.launch, &status});
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query (cub::detail::merge_sort::dispatch in CCCL 3.5) in closed
// form, from the bound policy (dispatch.hpp DispatchFn).
template <std::size_t K, std::size_t V, class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, const void*, void*, void*, std::uint64_t num_items,
                           CUstream, const void*) noexcept {
  if (!policy_supported(params)) return CUDA_ERROR_NOT_SUPPORTED;
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  if (num_items == 0) {
    temp_storage_bytes = 1;
    return CUDA_SUCCESS;
  }
  const std::uint64_t tiles =
      algos::detail::ceil_div(num_items, params.policy.items_per_tile);
  temp_storage_bytes = static_cast<std::size_t>(
      algos::detail::alias_bytes((1 + tiles) * sizeof(OffsetT), num_items * K, num_items * V));
  return CUDA_SUCCESS;
}

// This sort's entries for core's select_sort_dispatch, over arrays or input iterators (the
// temp storage is the same).
template <std::size_t K, std::size_t V, class OffsetT, bool Iterators>
struct Entries {
  static constexpr DispatchFn query = &closed_form_bytes<K, V, OffsetT>;
  static constexpr DispatchFn dispatch = &run_dispatch<K, V, OffsetT, Iterators>;
};

}  // namespace

DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                           bool closed_form, bool iterators) noexcept {
  return algos::detail::select_sort_dispatch<DispatchFn, Entries, algos::detail::SortStructs::keys_and_values>(
      key_size, value_size, offset_type, closed_form, iterators);
}

bool policy_supported(const DispatchParams& params) noexcept {
  const Policy& p = params.policy;
  return p.block_threads > 0 && p.block_threads <= INT_MAX && p.items_per_tile > 0 &&
         p.items_per_tile <= INT_MAX && p.items_per_tile % p.block_threads == 0 &&
         p.block_sort_vsmem_per_block == 0 && p.merge_vsmem_per_block == 0;
}

}  // namespace cccl_cache::algos::merge_sort::detail

namespace cccl_cache::algos {

const std::string& MergeSort::dispatch_abi() {
  using namespace merge_sort::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<cub::NullType>("null").type<OpArg>("compare");
    abi.type<cub::detail::vsmem_t>("vsmem").type<cub::MergeSortPolicy>("policy");
    abi.byte_types();
  });
}

}  // namespace cccl_cache::algos
