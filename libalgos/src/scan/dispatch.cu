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
// sizes: a scalar accumulator is a CUB primitive, so the device's tile state is the
// single-word one, as the stand-in's is; a struct's accumulator is the struct, whose tile
// state CUB chooses by size (single-word for 1, 2, 4 and 8 bytes, multi-word for 12 to
// 32), as it does for the stand-in (asserted below).
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
using algos::detail::OpArg;

// Stands in for an element type of N bytes on the host: an unsigned integer of that size
// and alignment, a CUB primitive like every element type, so that the host's tile state
// is the device's (single word for CUB primitives).
template <std::size_t N>
using Word = std::conditional_t<
    N == 1, std::uint8_t,
    std::conditional_t<N == 2, std::uint16_t, std::conditional_t<N == 4, std::uint32_t, std::uint64_t>>>;

// Stands in for a struct of N bytes (12, 16, 24, 32) on the host: the core's Bytes, not a
// CUB primitive, so that CUB gives it the multi-word tile state it gives the device's
// struct. Aligned to at most 8: CUB's InputValue (the initial value's argument, a union of
// the value and a pointer) then has the layout the device's has for any struct alignment
// up to 8, which the spec requires.
template <std::size_t N>
using StructBytes = algos::detail::Bytes<N, 8>;
// Whether CUB gives accumulator stand-in A the single-word tile state.
template <class A>
constexpr bool kSingleWord = std::is_same_v<cub::ScanTileState<A>, cub::ScanTileState<A, true>>;
static_assert(!kSingleWord<StructBytes<12>> && !kSingleWord<StructBytes<16>> &&
              !kSingleWord<StructBytes<24>> && !kSingleWord<StructBytes<32>>);
static_assert(sizeof(cub::detail::InputValue<StructBytes<12>>) == 24 &&
              sizeof(cub::detail::InputValue<StructBytes<16>>) == 24);

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

// CUB's scan kernel-source interface over the bound kernels, for elements of stand-in
// type T and an accumulator of stand-in type Accum.
template <class T, class Accum>
struct BoundKernels {
  using ScanTileStateT = cub::ScanTileState<Accum>;
  static_assert(kSingleWord<Accum> == (sizeof(Accum) <= 8),
                "CUB gives the device's accumulators of up to 8 bytes (scalars, small structs) the "
                "single-word tile state and structs of 12 to 32 bytes the multi-word one");
  using TileArg = cub::detail::scan::tile_state_kernel_arg_t<ScanTileStateT, Accum>;

  const DispatchParams* params;
  CUfunction InitKernel() const { return params->launch->kernels[init_kernel].function; }
  CUfunction ScanKernel() const { return params->launch->kernels[scan_kernel].function; }
  static constexpr std::size_t InputSize() { return sizeof(T); }
  static constexpr std::size_t InputAlign() { return alignof(T); }
  static constexpr std::size_t OutputSize() { return sizeof(T); }
  static constexpr std::size_t OutputAlign() { return alignof(T); }
  static constexpr std::size_t AccumSize() { return sizeof(Accum); }
  static constexpr std::size_t AccumAlign() { return alignof(Accum); }
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

// T, Accum: the element's and accumulator's stand-ins. In, Out: T* (an array) or IterArg
// (an iterator's packed bytes at d_in, d_out).
template <class T, class Accum, class OffsetT, bool WithInit, class In, class Out>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                      std::uint64_t num_items, InitValue initial, CUstream stream,
                      const void* op_state) noexcept {
  if (!policy_supported(params)) return CUDA_ERROR_NOT_SUPPORTED;
  if (num_items > max_items<OffsetT>(params.policy)) return CUDA_ERROR_INVALID_VALUE;
  CUresult status = CUDA_SUCCESS;
  auto dispatch = [&](auto init) {
    return cub::detail::scan::dispatch<cub::ForceInclusive::No, /*StableReductionOrder=*/false, In,
                                       Out, OpArg, decltype(init), OffsetT, Accum,
                                       RuntimePolicySelector, BoundKernels<T, Accum>,
                                       DriverLauncherFactory>(
        d_temp_storage, temp_storage_bytes, algos::detail::iterator_arg<In, T>(d_in),
        algos::detail::iterator_arg<Out, T>(d_out), OpArg{op_state}, init, static_cast<OffsetT>(num_items), stream,
        RuntimePolicySelector{&params}, BoundKernels<T, Accum>{&params},
        DriverLauncherFactory{params.launch, &status});
  };
  cudaError_t err;
  if constexpr (WithInit) {
    if (initial.device) {
      err = dispatch(cub::detail::InputValue<T>(
          cub::FutureValue<T>(static_cast<T*>(const_cast<void*>(initial.ptr)))));
    } else {
      T init{};
      if (initial.ptr != nullptr) std::memcpy(&init, initial.ptr, sizeof(T));  // size queries pass none
      err = dispatch(cub::detail::InputValue<T>(init));
    }
  } else {
    err = dispatch(cub::NullType{});
  }
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query (invoke_lookback, invoke_lookahead in CCCL 3.5) in closed
// form from the bound policy, for an accumulator of stand-in type Accum: look-back aliases
// one tile state, single-word (a transaction word per tile plus a warp of padding, itself
// aliased as three allocations of which two are empty) or multi-word (a status word, a
// partial and an inclusive value per tile and padding tile); look-ahead, one tile state
// per tile and a 4-byte counter, and one byte for an empty problem (dispatch.hpp DispatchFn).
template <class Accum, class OffsetT>
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
        ceil_div(num_items, tile) * BoundKernels<Accum, Accum>::lookahead_tile_state_size();
    temp_storage_bytes = num_items == 0 ? 1 : alias_bytes(states_bytes, sizeof(std::uint32_t));
    return CUDA_SUCCESS;
  }
  const auto tile = static_cast<std::uint32_t>(p.block_threads * p.items_per_thread);
  using TileState = typename BoundKernels<Accum, Accum>::ScanTileStateT;
  const std::uint64_t tiles = ceil_div(num_items, tile);
  if constexpr (kSingleWord<Accum>)
    temp_storage_bytes =
        alias_bytes(algos::detail::tile_state_bytes(tiles, sizeof(typename TileState::TxnWord)));
  else
    temp_storage_bytes = alias_bytes(algos::detail::tile_state_bytes(
        tiles, sizeof(typename TileState::StatusWord), sizeof(Accum)));
  return CUDA_SUCCESS;
}

}  // namespace

DispatchFn select_dispatch(std::size_t element_size, std::size_t accum_size,
                           ScalarType offset_type, bool with_init, bool closed_form,
                           bool iterator_input, bool iterator_output) noexcept {
  if (!is_unsigned_offset(offset_type)) return nullptr;
  using Entry = algos::detail::ClosedForm<DispatchFn>;
  // The instantiations for element stand-in T and accumulator stand-in Accum.
  auto with_types = [&](auto t, auto acc) -> DispatchFn {
    using T = typename decltype(t)::type;
    using Accum = typename decltype(acc)::type;
    return algos::detail::on_offset(offset_type, [&](auto o) -> DispatchFn {
      using OffsetT = typename decltype(o)::type;
      if constexpr (std::is_unsigned_v<OffsetT>) {
        auto entry = [&](auto init, auto in, auto out) -> DispatchFn {
          return Entry::select<&closed_form_bytes<Accum, OffsetT>,
                               &run_dispatch<T, Accum, OffsetT, decltype(init)::value,
                                             decltype(in), decltype(out)>>(closed_form);
        };
        return algos::detail::on_flag(with_init, [&](auto init) {
          return algos::detail::on_iterator_args<T>(
              iterator_input, iterator_output, [&](auto in, auto out) { return entry(init, in, out); });
        });
      } else {
        return nullptr;
      }
    });
  };
  if (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8) {
    // A struct of 12 to 32 bytes: its own accumulator, from and into arrays or zips.
    if (accum_size != element_size) return nullptr;
    return algos::detail::on_element_size(element_size, [&](auto n) -> DispatchFn {
      constexpr std::size_t kN = decltype(n)::value;
      if constexpr (kN == 12 || kN == 16 || kN == 24 || kN == 32)
        return with_types(std::type_identity<StructBytes<kN>>{}, std::type_identity<StructBytes<kN>>{});
      else
        return nullptr;
    });
  }
  return algos::detail::on_accumulator(element_size, accum_size, [&](auto n, auto a) {
    return with_types(std::type_identity<Word<decltype(n)::value>>{},
                      std::type_identity<Word<decltype(a)::value>>{});
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
    abi.type<BoundKernels<Word<1>, Word<1>>::TileArg>("tile1").type<BoundKernels<Word<8>, Word<8>>::TileArg>("tile8");
    abi.type<BoundKernels<Word<2>, Word<2>>::ScanTileStateT::TxnWord>("txn2");
    abi.type<cub::detail::warpspeed::tile_state_t<Word<2>>>("ws2");
    abi.type<Word<1>>("w1").type<Word<2>>("w2").type<Word<4>>("w4").type<Word<8>>("w8");
    // A struct's stand-ins (12 and 32 bytes: alignments 4 and 8), their initial value
    // and multi-word tile state.
    abi.type<StructBytes<12>>("s12").type<StructBytes<32>>("s32");
    abi.type<cub::detail::InputValue<StructBytes<12>>>("init_s12");
    abi.type<cub::detail::InputValue<StructBytes<32>>>("init_s32");
    abi.type<BoundKernels<StructBytes<12>, StructBytes<12>>::TileArg>("tile_s12");
    abi.type<cub::detail::warpspeed::tile_state_t<StructBytes<12>>>("ws_s12");
  });
}
template const std::string& InclusiveScan::dispatch_abi();
template const std::string& ExclusiveScan::dispatch_abi();

}  // namespace cccl_cache::algos
