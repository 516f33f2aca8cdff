// CCCL 3.5's unique_by_key host dispatch (cub::detail::unique_by_key::dispatch, what
// DeviceSelect::UniqueByKey calls; its host code compiled here by nvcc) driven by the
// kernels a bind resolved, through the core's launcher factory, with the build's policy
// values as a run-time policy selector.
//
// The device kernels were instantiated by the build (codegen.cpp) with K* and V* inputs
// and outputs, a S* count, ScanTileState<OffsetT> and an empty operator type. The
// dispatch passes the arrays to the kernels and never reads through them (its run-time
// policy needs no item type), so byte pointers give it the same argument layout for
// every key and value type, structs included; the tile state is the offset type's own
// (the same type on both sides). Where the spec
// has an iterator, the kernel takes all four as generated iterator structs, and the
// dispatch passes each call's packed bytes (IterArg) to the sweep launch as they are.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_unique_by_key.cuh>

#include <limits>

#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "core/temp_storage.hpp"
#include "unique_by_key/dispatch.hpp"

namespace cccl_cache::algos::unique_by_key::detail {
namespace {

using algos::detail::DriverLauncherFactory;
using algos::detail::OpArg;
// The items' and count's pointers: the dispatch passes them to the kernels, never reads
// through them.
using ItemPtr = unsigned char*;
using SelectedPtr = unsigned char*;

// The build chose the policy for the target CC: the host dispatch reads the tile shape;
// load, scan and delay choices are the device code's own.
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::UniqueByKeyPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    return cub::UniqueByKeyPolicy{static_cast<int>(p.threads),    static_cast<int>(p.items),
                                  cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_LDG,
                                  cub::BLOCK_SCAN_WARP_SCANS,     cub::LookbackDelayPolicy{}};
  }
};

template <class OffsetT>
struct BoundKernels {
  using TileStateT = cub::ScanTileState<OffsetT>;
  static_assert(std::is_same_v<TileStateT, cub::ScanTileState<OffsetT, true>>,
                "the offset's tile state is single-word");
  const DispatchParams* params;
  CUfunction CompactInitKernel() const { return params->launch->kernels[init_kernel].function; }
  CUfunction UniqueByKeySweepKernel() const {
    return params->launch->kernels[sweep_kernel].function;
  }
  static TileStateT TileState() { return {}; }
};

// Items per tile (at most 1024 x 256: UniqueByKey::check).
std::uint32_t tile_items(const DispatchParams& p) noexcept {
  return p.policy.threads * p.policy.items;
}

template <class OffsetT>
std::uint64_t max_items(const DispatchParams& p) noexcept {
  return algos::detail::tiled_max_items<OffsetT>(tile_items(p));
}

// Iterators: the four arguments as IterArg (each the address of an iterator's packed
// bytes), else the arrays.
template <class OffsetT, bool Iterators>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_keys_in,
                      const void* d_values_in, void* d_keys_out, void* d_values_out,
                      void* d_num_selected_out, std::uint64_t num_items, CUstream stream,
                      const void* op_state) noexcept {
  using Arg = std::conditional_t<Iterators, algos::detail::IterArg, ItemPtr>;
  using algos::detail::iterator_arg;
  if (num_items > max_items<OffsetT>(params)) return CUDA_ERROR_INVALID_VALUE;
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err =
      cub::detail::unique_by_key::dispatch<Arg, Arg, Arg, Arg, SelectedPtr, OpArg, OffsetT,
                                           RuntimePolicySelector, BoundKernels<OffsetT>,
                                           DriverLauncherFactory, unsigned char, unsigned char>(
          d_temp_storage, temp_storage_bytes, iterator_arg<Arg, unsigned char>(d_keys_in),
          iterator_arg<Arg, unsigned char>(d_values_in), iterator_arg<Arg, unsigned char>(d_keys_out),
          iterator_arg<Arg, unsigned char>(d_values_out), static_cast<SelectedPtr>(d_num_selected_out),
          OpArg{op_state}, static_cast<OffsetT>(num_items), stream, RuntimePolicySelector{&params},
          BoundKernels<OffsetT>{&params}, DriverLauncherFactory{params.launch, &status});
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query in closed form (dispatch.hpp DispatchFn): the single-word
// tile state of the offset type (a transaction word per tile plus a warp of padding,
// itself aliased as three allocations of which two are empty), aliased with the empty
// virtual shared memory.
template <class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, const void*, void*, void*, void*, std::uint64_t num_items,
                           CUstream, const void*) noexcept {
  using algos::detail::alias_bytes;
  if (num_items > max_items<OffsetT>(params)) return CUDA_ERROR_INVALID_VALUE;
  using TxnWord = typename BoundKernels<OffsetT>::TileStateT::TxnWord;
  const std::uint64_t tiles = algos::detail::ceil_div(num_items, tile_items(params));
  temp_storage_bytes =
      static_cast<std::size_t>(alias_bytes(algos::detail::tile_state_bytes(tiles, sizeof(TxnWord)), 0));
  return CUDA_SUCCESS;
}

}  // namespace

DispatchFn select_dispatch(ScalarType offset_type, bool closed_form, bool iterators) noexcept {
  using Entry = algos::detail::ClosedForm<DispatchFn>;
  if (!is_unsigned_offset(offset_type)) return nullptr;
  return algos::detail::on_flag(iterators, [&](auto iterators_c) {
    return algos::detail::on_unsigned_offset(offset_type, [&](auto offset) -> DispatchFn {
      using OffsetT = decltype(offset);
      return Entry::select<&closed_form_bytes<OffsetT>, &run_dispatch<OffsetT, decltype(iterators_c)::value>>(
          closed_form);
    });
  });
}

}  // namespace cccl_cache::algos::unique_by_key::detail

namespace cccl_cache::algos {

const std::string& UniqueByKey::dispatch_abi() {
  using namespace unique_by_key::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<ItemPtr>("items").type<OpArg>("op").type<SelectedPtr>("selected");
    abi.type<cub::ScanTileState<std::uint32_t>>("tile4").type<cub::ScanTileState<unsigned long long>>("tile8");
    abi.type<cub::detail::vsmem_t>("vsmem");
  });
}

}  // namespace cccl_cache::algos
