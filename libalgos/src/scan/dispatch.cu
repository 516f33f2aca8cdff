// CCCL 3.5's scan host dispatch (cub::detail::scan::dispatch, the policy-selector
// dispatch; its host code compiled here by nvcc) driven by the kernels a bind resolved,
// through the core's launcher factory (core/launch.cuh), with the build's policy
// values as a run-time policy selector.
//
// The device kernels were instantiated by the build (codegen.cpp) as
//   DeviceScanInitKernel<selector, T*, T*, ScanTileState<A>, A>
//   DeviceScanKernel<selector, T*, T*, ScanTileState<A>, Op, Init, OffsetT, A, false, false>
// with Init = cub::NullType (inclusive) or cub::detail::InputValue<T> (exclusive, and the
// seeded inclusive scan, whose kernel's ForceInclusive is true) and A
// CUB's accumulator (its size read from the kernels' compile), as
// cub::DeviceScan::InclusiveScan / ExclusiveScan instantiate them. Host stand-ins of T's
// and A's size and alignment give the dispatch the same argument layout and tile-state
// sizes (every accumulator is a CUB primitive, so the device's tile state is the
// single-word one, as the stand-in's is: asserted below).
#include "core/launch.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_scan.cuh>

#include <cstring>

#include "cccl_cache/algos/scan/build_result.hpp"
#include "core/temp_storage.hpp"
#include "scan/dispatch.hpp"

namespace cccl_cache::algos::scan::detail {
namespace {

using algos::detail::DriverLauncherFactory;
using algos::detail::IterArg;
using algos::detail::OpArg;

// Stands in for an element type of N bytes on the host: an unsigned integer of that size
// and alignment, a CUB primitive like every element type, so that the host's tile state
// is the device's (single word for CUB primitives).
template <std::size_t N>
using Word = std::conditional_t<
    N == 1, std::uint8_t,
    std::conditional_t<N == 2, std::uint16_t, std::conditional_t<N == 4, std::uint32_t, std::uint64_t>>>;

// A policy value as CUB's int (stage counts are ints, two's complement in the Policy).
constexpr int as_int(std::uint32_t v) noexcept { return static_cast<int>(v); }

cub::ScanLookaheadPolicy lookahead_policy(const Policy& p) {
  return cub::ScanLookaheadPolicy{as_int(p.reduce_and_scan_warps), as_int(p.items_per_thread),
                                  as_int(p.lookahead_items_per_thread), as_int(p.lookahead_stages),
                                  as_int(p.block_idx_stages)};
}

// The build already chose the policy for the target CC: the host dispatch reads the
// algorithm, the tile shape and (look-ahead) the shared-memory stages; the load, store
// and delay choices are the device code's own and unused here.
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::ScanPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    return cub::ScanPolicy{
        static_cast<cub::ScanAlgorithm>(p.algorithm),
        cub::ScanLookbackPolicy{as_int(p.block_threads), as_int(p.items_per_thread),
                                cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,
                                cub::LookbackDelayPolicy{}},
        lookahead_policy(p)};
  }
};

// CUB's scan kernel-source interface over the bound kernels, for elements of N bytes
// and an accumulator of A bytes.
template <std::size_t N, std::size_t A>
struct BoundKernels {
  using Accum = Word<A>;
  using ScanTileStateT = cub::ScanTileState<Accum>;
  static_assert(std::is_same_v<ScanTileStateT, cub::ScanTileState<Accum, true>>,
                "the device's accumulator types have the single-word tile state");
  using TileArg = cub::detail::scan::tile_state_kernel_arg_t<ScanTileStateT, Accum>;

  const DispatchParams* params;
  CUfunction InitKernel() const { return params->launch->kernels[init_kernel].function; }
  CUfunction ScanKernel() const { return params->launch->kernels[scan_kernel].function; }
  static constexpr std::size_t InputSize() { return N; }
  static constexpr std::size_t InputAlign() { return N; }
  static constexpr std::size_t OutputSize() { return N; }
  static constexpr std::size_t OutputAlign() { return N; }
  static constexpr std::size_t AccumSize() { return A; }
  static constexpr std::size_t AccumAlign() { return A; }
  static ScanTileStateT TileState() { return {}; }
  static constexpr std::size_t lookahead_tile_state_size() {
    return sizeof(cub::detail::warpspeed::tile_state_t<Accum>);
  }
  static constexpr std::size_t lookahead_tile_state_alignment() {
    return alignof(cub::detail::warpspeed::tile_state_t<Accum>);
  }
  static TileArg make_tile_state_kernel_arg(ScanTileStateT ts) {
    TileArg arg;
    ::cuda::std::__construct_at(&arg.lookback, ts);
    return arg;
  }
  static TileArg lookahead_make_tile_state_kernel_arg(void* ts,
                                                      std::uint32_t* atomic_counter = nullptr) {
    TileArg arg;
    ::cuda::std::__construct_at(
        &arg.lookahead,
        cub::detail::scan::lookahead_tile_state_arg_t<Accum>{
            static_cast<cub::detail::warpspeed::tile_state_t<Accum>*>(ts), atomic_counter});
    return arg;
  }
};

// The most items one call can scan, by the algorithm's tile.
template <class OffsetT>
std::uint64_t max_items(const Policy& p) noexcept {
  return algos::detail::tiled_max_items<OffsetT>(
      as_int(p.algorithm) == static_cast<int>(cub::ScanAlgorithm::lookahead)
          ? static_cast<std::uint64_t>(lookahead_policy(p).tile_size())
          : std::uint64_t{p.block_threads} * p.items_per_thread);
}

// In: T* (an array) or IterArg (an input iterator's packed bytes at d_in).
template <std::size_t N, std::size_t A, class OffsetT, bool WithInit, class In>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                      std::uint64_t num_items, InitValue initial, CUstream stream,
                      const void* op_state) noexcept {
  using T = Word<N>;
  if (!policy_supported(params)) return CUDA_ERROR_NOT_SUPPORTED;
  if (num_items > max_items<OffsetT>(params.policy)) return CUDA_ERROR_INVALID_VALUE;
  CUresult status = CUDA_SUCCESS;
  auto dispatch = [&](auto init) {
    return cub::detail::scan::dispatch<cub::ForceInclusive::No, /*StableReductionOrder=*/false, In,
                                       T*, OpArg, decltype(init), OffsetT, Word<A>,
                                       RuntimePolicySelector, BoundKernels<N, A>,
                                       DriverLauncherFactory>(
        d_temp_storage, temp_storage_bytes, algos::detail::input_arg<In, T>(d_in),
        static_cast<T*>(d_out), OpArg{op_state}, init, static_cast<OffsetT>(num_items), stream,
        RuntimePolicySelector{&params}, BoundKernels<N, A>{&params},
        DriverLauncherFactory{params.launch, &status});
  };
  cudaError_t err;
  if constexpr (WithInit) {
    if (initial.device) {
      err = dispatch(cub::detail::InputValue<T>(
          cub::FutureValue<T>(static_cast<T*>(const_cast<void*>(initial.ptr)))));
    } else {
      T init{};
      if (initial.ptr != nullptr) std::memcpy(&init, initial.ptr, N);  // size queries pass none
      err = dispatch(cub::detail::InputValue<T>(init));
    }
  } else {
    err = dispatch(cub::NullType{});
  }
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query (invoke_lookback, invoke_lookahead in CCCL 3.5) in closed
// form from the bound policy, for an accumulator of A bytes: look-back aliases one single-word
// tile state (a transaction word per tile plus a warp of padding, itself aliased as three
// allocations of which two are empty); look-ahead, one tile state per tile and a 4-byte
// counter, and one byte for an empty problem (dispatch.hpp DispatchFn).
template <std::size_t A, class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, void*, std::uint64_t num_items, InitValue, CUstream,
                           const void*) noexcept {
  using algos::detail::alias_bytes;
  using algos::detail::ceil_div;
  const Policy& p = params.policy;
  if (!policy_supported(params)) return CUDA_ERROR_NOT_SUPPORTED;
  if (num_items > max_items<OffsetT>(p)) return CUDA_ERROR_INVALID_VALUE;
  if (as_int(p.algorithm) == static_cast<int>(cub::ScanAlgorithm::lookahead)) {
    const auto tile = static_cast<std::uint32_t>(lookahead_policy(p).tile_size());
    const std::uint64_t states_bytes =
        ceil_div(num_items, tile) * BoundKernels<A, A>::lookahead_tile_state_size();
    temp_storage_bytes = num_items == 0 ? 1 : alias_bytes(states_bytes, sizeof(std::uint32_t));
    return CUDA_SUCCESS;
  }
  const auto tile = static_cast<std::uint32_t>(p.block_threads * p.items_per_thread);
  using TxnWord = typename BoundKernels<A, A>::ScanTileStateT::TxnWord;
  temp_storage_bytes =
      alias_bytes(algos::detail::tile_state_bytes(ceil_div(num_items, tile), sizeof(TxnWord)));
  return CUDA_SUCCESS;
}

}  // namespace

DispatchFn select_dispatch(std::size_t element_size, std::size_t accum_size,
                           ScalarType offset_type, bool with_init, bool closed_form,
                           bool iterator_input) noexcept {
  if (!is_unsigned_offset(offset_type)) return nullptr;
  return algos::detail::on_accumulator(element_size, accum_size, [&](auto n, auto a) {
    return algos::detail::on_offset(offset_type, [&](auto o) -> DispatchFn {
      using OffsetT = typename decltype(o)::type;
      constexpr std::size_t kN = decltype(n)::value, kA = decltype(a)::value;
      using Entry = algos::detail::ClosedForm<DispatchFn>;
      if constexpr (std::is_unsigned_v<OffsetT>) {
        auto entry = [&](auto init, auto in) -> DispatchFn {
          return Entry::select<&closed_form_bytes<kA, OffsetT>,
                               &run_dispatch<kN, kA, OffsetT, decltype(init)::value,
                                             decltype(in)>>(closed_form);
        };
        auto with_input = [&](auto init) {
          return iterator_input ? entry(init, IterArg{}) : entry(init, static_cast<Word<kN>*>(nullptr));
        };
        return with_init ? with_input(std::true_type{}) : with_input(std::false_type{});
      } else {
        return nullptr;
      }
    });
  });
}

bool policy_supported(const DispatchParams& params) noexcept {
  const Policy& p = params.policy;
  const int threads = as_int(p.block_threads);
  if (threads <= 0 || threads > 1024 || as_int(p.items_per_thread) <= 0) return false;
  if (as_int(p.algorithm) == static_cast<int>(cub::ScanAlgorithm::lookback)) return true;
  if (as_int(p.algorithm) != static_cast<int>(cub::ScanAlgorithm::lookahead)) return false;
  return as_int(p.reduce_and_scan_warps) > 0 && as_int(p.lookahead_items_per_thread) > 0 &&
         cub::detail::scan::num_total_threads(lookahead_policy(p)) == threads;
}

}  // namespace cccl_cache::algos::scan::detail

namespace cccl_cache::algos {

template <AlgorithmId Id>
const std::string& Scan<Id>::dispatch_abi() {
  using namespace scan::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<cub::NullType>("null").type<OpArg>("op");
    abi.type<cub::detail::InputValue<Word<1>>>("init1").type<cub::detail::InputValue<Word<8>>>("init8");
    abi.type<BoundKernels<1, 1>::TileArg>("tile1").type<BoundKernels<8, 8>::TileArg>("tile8");
    abi.type<BoundKernels<2, 2>::ScanTileStateT::TxnWord>("txn2");
    abi.type<cub::detail::warpspeed::tile_state_t<Word<2>>>("ws2");
    abi.type<Word<1>>("w1").type<Word<2>>("w2").type<Word<4>>("w4").type<Word<8>>("w8");
  });
}
template const std::string& InclusiveScan::dispatch_abi();
template const std::string& ExclusiveScan::dispatch_abi();

}  // namespace cccl_cache::algos
