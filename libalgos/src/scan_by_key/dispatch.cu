// CCCL 3.5's scan-by-key host dispatch (cub::detail::scan_by_key::dispatch, the
// policy-selector dispatch cub::DeviceScan::*ScanByKey calls; its host code compiled
// here by nvcc) driven by the kernels a bind resolved, through the core's launcher
// factory (core/launch.cuh), with the build's policy values as a run-time policy
// selector. Its runtime calls (cudaGetDevice, cudaDeviceGetAttribute for the grid's
// x limit) are answered from the bound launch context (core/launch.cuh RuntimeAnswers).
//
// The device kernels were instantiated by the build (codegen.cpp) as
//   DeviceScanByKeyInitKernel<ReduceByKeyScanTileState<A, int>, K*, OffsetT>
//   DeviceScanByKeyKernel<selector, K*, V*, V*, ReduceByKeyScanTileState<A, int>, Eq, Op,
//                         Init, OffsetT, A>
// with Init = cub::NullType (inclusive) or V (exclusive) and A CUB's accumulator (its
// size and alignment read from the kernels' compile), as DeviceScan instantiates them.
// The host names only K (a stand-in of its size: CUB sizes each tile's saved key by it).
// The dispatch reads the tile state from its kernel source, so the accumulator's is
// core/tile_state.cuh's RuntimeTileState: the shape CUB gives a stand-in of A's size and
// alignment (tile_shape, fixed at bind), sized and laid out by CUB's own helpers. The
// exclusive scan's initial value is passed as its bytes (ValueArg). Where the spec has an iterator, the kernels
// take all three arguments as generated iterator structs, and the dispatch passes each
// call's packed bytes (IterArg) to the launches as they are; the keys' stand-in names K
// as its value type.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"
#include "core/tile_state.cuh"

#include <cub/device/dispatch/dispatch_scan_by_key.cuh>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "core/temp_storage.hpp"
#include "scan_by_key/dispatch.hpp"

namespace cccl_cache::algos::scan_by_key::detail {
namespace {

using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
using algos::detail::EmptyOp;

// CUB's by-key tile state for an accumulator stand-in A. CUB chooses single-word for a
// trivially copyable A with sizeof(A) + sizeof(int) < 16: the stand-in (bytes) and the
// device's accumulator (a scalar, or a struct, whose trivial copyability the build
// asserts) fall on the same side.
template <class A>
using CubTileState = cub::ReduceByKeyScanTileState<A, int>;

// The build chose the policy for the target CC: the host dispatch reads the tile shape;
// load, store, scan and delay choices are the device code's own.
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::ScanByKeyPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    return cub::ScanByKeyPolicy{
        cub::ScanByKeyAlgorithm::lookback,
        cub::ScanByKeyLookbackPolicy{static_cast<int>(p.block_threads),
                                     static_cast<int>(p.items_per_thread),
                                     cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                     cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,
                                     cub::LookbackDelayPolicy{}}};
  }
};

// CUB's scan-by-key kernel-source interface over the bound kernels.
struct BoundKernels {
  using ScanByKeyTileStateT = algos::detail::RuntimeTileState;
  const DispatchParams* params;
  CUfunction InitKernel() const { return params->launch->kernels[init_kernel].function; }
  CUfunction ScanKernel() const { return params->launch->kernels[scan_kernel].function; }
  algos::detail::RuntimeTileState TileState() const { return {{}, params->tile}; }
};

// Items per tile (at most 1024 x 1024: ScanByKey::check).
std::uint32_t tile_items(const Policy& p) noexcept { return p.block_threads * p.items_per_thread; }

// The most items one call can scan: CUB adds a warp of padding to the tile count (the
// tile state's size, in int).
template <class OffsetT>
std::uint64_t max_items(const Policy& p) noexcept {
  return algos::detail::tiled_max_items<OffsetT>(tile_items(p), std::numeric_limits<int>::max() - 32);
}

// K: the keys' size. Iterators: the three arguments as IterArg (each the address of an
// iterator's packed bytes), else arrays (pointers whose items the host never touches).
template <std::size_t K, class OffsetT, bool Exclusive, bool Iterators>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_keys_in,
                      const void* d_values_in, void* d_values_out, std::uint64_t num_items,
                      const void* h_init, CUstream stream) noexcept {
  using Key = Bytes<K>;
  using Item = Bytes<1>;  // a value array's pointer type (the host moves no values)
  using KeyArg = std::conditional_t<Iterators, algos::detail::ValuedIterArg<Key>, Key*>;
  using ValuesArg = std::conditional_t<Iterators, algos::detail::IterArg, Item*>;
  using Init = std::conditional_t<Exclusive, algos::detail::ValueArg, cub::NullType>;
  using algos::detail::iterator_arg;
  if (num_items > max_items<OffsetT>(params.policy)) return CUDA_ERROR_INVALID_VALUE;
  if (d_temp_storage != nullptr) {
    if (Exclusive && h_init == nullptr) return CUDA_ERROR_INVALID_VALUE;
    // CUB steps its scan grids by the grid's x limit: a context without it would never end.
    if (params.launch->max_grid_dim_x <= 0) return CUDA_ERROR_INVALID_VALUE;
  }
  Init init{};
  if constexpr (Exclusive) init.bytes = h_init;  // size queries pass none
  CUresult status = CUDA_SUCCESS;
  const DriverLauncherFactory factory{params.launch, &status};
  const algos::detail::RuntimeAnswers answers(factory);
  // The accumulator (the first argument) only names CUB's defaults, all given here.
  const cudaError_t err = cub::detail::scan_by_key::dispatch<
      Item, KeyArg, ValuesArg, ValuesArg, EmptyOp, EmptyOp, Init, OffsetT, Item,
      RuntimePolicySelector, BoundKernels, DriverLauncherFactory>(
      d_temp_storage, temp_storage_bytes, iterator_arg<KeyArg, Key>(d_keys_in),
      iterator_arg<ValuesArg, Item>(d_values_in), iterator_arg<ValuesArg, Item>(d_values_out),
      EmptyOp{}, EmptyOp{}, init, static_cast<OffsetT>(num_items), stream,
      RuntimePolicySelector{&params}, BoundKernels{&params}, factory);
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query in closed form (dispatch.hpp DispatchFn): the by-key tile
// state (single-word: a transaction word per tile plus a warp of padding; multi-word: a
// status word and two payloads each, as three aliased allocations) aliased with each
// tile's predecessor key (one more key than tiles).
template <std::size_t K, class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, const void*, void*, std::uint64_t num_items, const void*,
                           CUstream) noexcept {
  if (num_items > max_items<OffsetT>(params.policy)) return CUDA_ERROR_INVALID_VALUE;
  const std::uint64_t tiles = algos::detail::ceil_div(num_items, tile_items(params.policy));
  const std::uint64_t state = algos::detail::tile_state_bytes(params.tile, tiles);
  temp_storage_bytes = static_cast<std::size_t>(algos::detail::alias_bytes(state, K * (tiles + 1)));
  return CUDA_SUCCESS;
}

}  // namespace

std::optional<TileShape> tile_shape(std::uint32_t accum_size, std::uint32_t accum_align) noexcept {
  return algos::detail::on_layout(accum_size, accum_align, [](auto a) -> std::optional<TileShape> {
    return algos::detail::shape_of<CubTileState<typename decltype(a)::type>>();
  });
}

DispatchFn select_dispatch(std::size_t key_size, ScalarType offset_type, bool exclusive,
                           bool closed_form, bool iterators) noexcept {
  using Entry = algos::detail::ClosedForm<DispatchFn>;
  using algos::detail::on_flag;
  if (!is_unsigned_offset(offset_type)) return nullptr;
  return algos::detail::on_element_size(key_size, [&](auto k) -> DispatchFn {
    constexpr std::size_t kK = decltype(k)::value;
    return on_flag(exclusive, [&](auto exclusive_c) {
      return on_flag(iterators, [&](auto iterators_c) {
        return algos::detail::on_unsigned_offset(offset_type, [&](auto offset) -> DispatchFn {
          using OffsetT = decltype(offset);
          return Entry::select<&closed_form_bytes<kK, OffsetT>,
                               &run_dispatch<kK, OffsetT, decltype(exclusive_c)::value,
                                             decltype(iterators_c)::value>>(closed_form);
        });
      });
    });
  });
}

}  // namespace cccl_cache::algos::scan_by_key::detail

namespace cccl_cache::algos {

const std::string& ScanByKey::dispatch_abi() {
  using namespace scan_by_key::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<cub::NullType>("null").type<EmptyOp>("op");
    abi.type<algos::detail::ValueArg>("init");
    // The tile states the shapes come from: single-word (1 to 8 bytes) and multi-word (12
    // to 32, each tile's payload a KeyValuePair<int, A> of the accumulator's alignment).
    abi.type<cub::ReduceByKeyScanTileState<Bytes<1>, int>>("tile1");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<8>, int>>("tile8");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<1>, int>::TxnWord>("txn1");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<4>, int>::TxnWord>("txn4");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<8>, int>::TxnWord>("txn8");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<12, 4>, int>>("tile_s12");
    abi.type<cub::KeyValuePair<int, Bytes<12, 4>>>("pair_s12");
    abi.type<cub::KeyValuePair<int, Bytes<16, 4>>>("pair_s16_4");
    abi.type<cub::KeyValuePair<int, Bytes<32, 8>>>("pair_s32_8");
    abi.type<cub::KeyValuePair<int, Bytes<32, 16>>>("pair_s32_16");
    abi.byte_types();
  });
}

}  // namespace cccl_cache::algos
