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
// size read from the kernels' compile), as DeviceScan instantiates them. Host stand-ins of K's, V's and A's
// size and alignment give the dispatch the same argument layout and tile-state sizes
// (every accumulator is a CUB primitive of at most 8 bytes, so both sides have the
// single-word tile state: asserted below). Where the spec has an iterator, the kernels take
// all three arguments as generated iterator structs, and the dispatch passes each call's
// packed bytes (IterArg) to the launches as they are; the keys' stand-in names K as its
// value type, which CUB's dispatch sizes each tile's saved key by.
#include "core/launch.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_scan_by_key.cuh>

#include <cstring>
#include <limits>

#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "core/temp_storage.hpp"
#include "scan_by_key/dispatch.hpp"

namespace cccl_cache::algos::scan_by_key::detail {
namespace {

using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
using algos::detail::EmptyOp;

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

// CUB's scan-by-key kernel-source interface over the bound kernels, for an accumulator
// of A bytes.
template <std::size_t A>
struct BoundKernels {
  using ScanByKeyTileStateT = cub::ReduceByKeyScanTileState<Bytes<A>, int>;
  static_assert(std::is_same_v<ScanByKeyTileStateT, cub::ReduceByKeyScanTileState<Bytes<A>, int, true>>,
                "the device's value types have the single-word tile state");
  const DispatchParams* params;
  CUfunction InitKernel() const { return params->launch->kernels[init_kernel].function; }
  CUfunction ScanKernel() const { return params->launch->kernels[scan_kernel].function; }
  static ScanByKeyTileStateT TileState() { return {}; }
};

// Items per tile (at most 1024 x 1024: ScanByKey::check).
std::uint32_t tile_items(const Policy& p) noexcept { return p.block_threads * p.items_per_thread; }

// The most items one call can scan: CUB adds a warp of padding to the tile count (the
// tile state's size, in int).
template <class OffsetT>
std::uint64_t max_items(const Policy& p) noexcept {
  return algos::detail::tiled_max_items<OffsetT>(tile_items(p), std::numeric_limits<int>::max() - 32);
}

// V: the values' size, which only an exclusive scan's initial value (a kernel argument
// of type V) shows the host. Iterators: the three arguments as IterArg (each the address
// of an iterator's packed bytes), else K* and V* arrays.
template <std::size_t K, std::size_t V, std::size_t A, class OffsetT, bool Exclusive, bool Iterators>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_keys_in,
                      const void* d_values_in, void* d_values_out, std::uint64_t num_items,
                      const void* h_init, CUstream stream) noexcept {
  using Key = Bytes<K>;
  using Value = Bytes<V>;
  using Accum = Bytes<A>;
  using KeyArg = std::conditional_t<Iterators, algos::detail::ValuedIterArg<Key>, Key*>;
  using ValueArg = std::conditional_t<Iterators, algos::detail::IterArg, Value*>;
  using algos::detail::iterator_arg;
  if (num_items > max_items<OffsetT>(params.policy)) return CUDA_ERROR_INVALID_VALUE;
  if (d_temp_storage != nullptr) {
    if (Exclusive && h_init == nullptr) return CUDA_ERROR_INVALID_VALUE;
    // CUB steps its scan grids by the grid's x limit: a context without it would never end.
    if (params.launch->max_grid_dim_x <= 0) return CUDA_ERROR_INVALID_VALUE;
  }
  CUresult status = CUDA_SUCCESS;
  const DriverLauncherFactory factory{params.launch, &status};
  const algos::detail::RuntimeAnswers answers(factory);
  auto dispatch = [&](auto init) {
    return cub::detail::scan_by_key::dispatch<
        Accum, KeyArg, ValueArg, ValueArg, EmptyOp, EmptyOp, decltype(init), OffsetT, Accum,
        RuntimePolicySelector, BoundKernels<A>, DriverLauncherFactory>(
        d_temp_storage, temp_storage_bytes, iterator_arg<KeyArg, Key>(d_keys_in),
        iterator_arg<ValueArg, Value>(d_values_in), iterator_arg<ValueArg, Value>(d_values_out),
        EmptyOp{}, EmptyOp{}, init, static_cast<OffsetT>(num_items), stream,
        RuntimePolicySelector{&params}, BoundKernels<A>{&params}, factory);
  };
  cudaError_t err;
  if constexpr (Exclusive) {
    Value init{};
    if (h_init != nullptr) std::memcpy(&init, h_init, V);  // size queries pass none
    err = dispatch(init);
  } else {
    err = dispatch(cub::NullType{});
  }
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query in closed form (dispatch.hpp DispatchFn): the single-word
// by-key tile state (a transaction word per tile plus a warp of padding) aliased with
// each tile's predecessor key (one more key than tiles).
template <std::size_t K, std::size_t A, class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, const void*, void*, std::uint64_t num_items, const void*,
                           CUstream) noexcept {
  if (num_items > max_items<OffsetT>(params.policy)) return CUDA_ERROR_INVALID_VALUE;
  using TxnWord = typename BoundKernels<A>::ScanByKeyTileStateT::TxnWord;
  const std::uint64_t tiles = algos::detail::ceil_div(num_items, tile_items(params.policy));
  temp_storage_bytes = static_cast<std::size_t>(
      algos::detail::alias_bytes((32 + tiles) * sizeof(TxnWord), K * (tiles + 1)));
  return CUDA_SUCCESS;
}

}  // namespace

DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, std::size_t accum_size,
                           ScalarType offset_type, bool exclusive, bool closed_form,
                           bool iterators) noexcept {
  using Entry = algos::detail::ClosedForm<DispatchFn>;
  if (!is_unsigned_offset(offset_type)) return nullptr;
  return algos::detail::on_size(key_size, [&](auto k) {
    return algos::detail::on_accumulator(value_size, accum_size, [&](auto v, auto a) -> DispatchFn {
      constexpr std::size_t kK = decltype(k)::value, kV = decltype(v)::value, kA = decltype(a)::value;
      // An inclusive scan passes the values through as pointers or iterators: its entries
      // take V = A.
      using algos::detail::on_flag;
      return on_flag(exclusive, [&](auto exclusive_c) {
        return on_flag(iterators, [&](auto iterators_c) {
          return algos::detail::on_unsigned_offset(offset_type, [&](auto offset) -> DispatchFn {
            using OffsetT = decltype(offset);
            constexpr bool kExclusive = decltype(exclusive_c)::value;
            return Entry::select<&closed_form_bytes<kK, kA, OffsetT>,
                                 &run_dispatch<kK, kExclusive ? kV : kA, kA, OffsetT, kExclusive,
                                               decltype(iterators_c)::value>>(closed_form);
          });
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
    abi.type<cub::ReduceByKeyScanTileState<Bytes<1>, int>>("tile1");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<8>, int>>("tile8");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<1>, int>::TxnWord>("txn1");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<4>, int>::TxnWord>("txn4");
    abi.type<cub::ReduceByKeyScanTileState<Bytes<8>, int>::TxnWord>("txn8");
    abi.byte_types();
  });
}

}  // namespace cccl_cache::algos
