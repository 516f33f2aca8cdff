// CCCL 3.5's scan host dispatch (cub::detail::scan::dispatch, the policy-selector
// dispatch; its host code compiled here by nvcc) driven by the kernels a bind resolved,
// through the core's launcher factory (core/launch.cuh), with the build's policy
// values as a run-time policy selector.
//
// The device kernels were instantiated by the build (codegen.cpp) as
//   DeviceScanInitKernel<selector, T*, T*, ScanTileState<A>, A>
//   DeviceScanKernel<selector, T*, T*, ScanTileState<A>, Op, Init, OffsetT, A, false, false>
// with Init = cub::NullType (inclusive) or cub::detail::InputValue<T> (exclusive, and the
// seeded inclusive scan, whose kernel's ForceInclusive is true) and A CUB's accumulator
// (its size read from the kernels' compile), as cub::DeviceScan::InclusiveScan /
// ExclusiveScan instantiate them. The host names neither T nor A: what it needs of them
// is fixed at bind (state_layout) from host stand-ins of their sizes, and one
// instantiation of the dispatch serves every element and accumulator:
// - the tile state is core/tile_state.cuh's RuntimeTileState of ScanTileState<A>'s shape
//   (a scalar accumulator is a CUB primitive, so the device's state is single-word, as the
//   stand-in's is; a struct's accumulator is the struct, whose state CUB chooses by size:
//   single-word for 1, 2, 4 and 8 bytes, multi-word for 12 to 32, as for the stand-in),
//   passed to the kernels as the bytes of CUB's tile-state argument union (TileArg);
// - the look-ahead state's size is a value;
// - the initial value is passed as the bytes of InputValue<T> (InitArg).
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"
#include "core/tile_state.cuh"

#include <cub/device/dispatch/dispatch_scan.cuh>

#include <cstring>

#include "cccl_cache/algos/scan/build_result.hpp"
#include "core/temp_storage.hpp"
#include "scan/dispatch.hpp"

namespace cccl_cache::algos::scan::detail {
namespace {

using algos::detail::DriverLauncherFactory;
using algos::detail::OpArg;
using algos::detail::RuntimeTileState;

// Stands in for an element type of N bytes on the host: an unsigned integer of that size
// and alignment, a CUB primitive like every element type, so that its tile state is the
// device's (single word for CUB primitives).
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

// CUB's tile-state kernel argument (tile_state_kernel_arg_t: a union of the look-back
// state and the look-ahead state's pointer and counter) as bytes: the driver reads the
// kernel's parameter size of them (16 or 24 bytes).
struct TileArg {
  void* words[3] = {};
};
template <class A>
using CubTileArg = cub::detail::scan::tile_state_kernel_arg_t<cub::ScanTileState<A>, A>;
static_assert(sizeof(CubTileArg<Word<1>>) == 16 && sizeof(CubTileArg<StructBytes<32>>) == sizeof(TileArg) &&
              alignof(CubTileArg<StructBytes<12>>) == alignof(TileArg));

// The initial value's bytes (dispatch.hpp InitArg) are CUB's InputValue<T> for every
// stand-in (tile_state_cub_reference.cu in the tests compares them byte by byte).
static_assert(sizeof(cub::detail::InputValue<StructBytes<32>>) == sizeof(InitArg) &&
              sizeof(cub::detail::InputValue<StructBytes<12>>) == 24 &&
              sizeof(cub::detail::InputValue<Word<1>>) == 16);

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

// CUB's scan kernel-source interface over the bound kernels and the bound layout (what
// CCCL 3.5's dispatch calls of it: not OutputSize, and lookahead_tile_state_alignment only
// in an assertion compiled out).
struct BoundKernels {
  const DispatchParams* params;
  CUfunction InitKernel() const { return params->launch->kernels[init_kernel].function; }
  CUfunction ScanKernel() const { return params->launch->kernels[scan_kernel].function; }
  std::size_t InputSize() const { return params->layout.element_size; }
  std::size_t InputAlign() const { return params->layout.element_align; }
  std::size_t OutputAlign() const { return params->layout.element_align; }
  std::size_t AccumSize() const { return params->layout.accum_size; }
  std::size_t AccumAlign() const { return params->layout.accum_align; }
  RuntimeTileState TileState() const { return {{}, params->layout.lookback}; }
  std::size_t lookahead_tile_state_size() const { return params->layout.lookahead_bytes; }
  TileArg make_tile_state_kernel_arg(const RuntimeTileState& ts) const {
    return {{ts.pointers[0], ts.pointers[1], ts.pointers[2]}};
  }
  TileArg lookahead_make_tile_state_kernel_arg(void* ts, std::uint32_t* atomic_counter = nullptr) const {
    return {{ts, atomic_counter, nullptr}};
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

// In, Out: Item* (an array, never dereferenced here) or IterArg (an iterator's packed
// bytes at d_in, d_out).
using Item = algos::detail::Bytes<1>;
template <class OffsetT, bool WithInit, class In, class Out>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                      std::uint64_t num_items, InitValue initial, CUstream stream,
                      const void* op_state) noexcept {
  if (!policy_supported(params)) return CUDA_ERROR_NOT_SUPPORTED;
  if (num_items > max_items<OffsetT>(params.policy)) return CUDA_ERROR_INVALID_VALUE;
  CUresult status = CUDA_SUCCESS;
  // An unseeded scan's kernels take no initial value: nothing to lay out.
  using InitBytes = std::conditional_t<WithInit, InitArg, cub::NullType>;
  const InitBytes init_bytes = [&] {
    if constexpr (WithInit) return init_arg(initial, params.layout.element_size);
    else return cub::NullType{};
  }();
  using Init = std::conditional_t<WithInit, algos::detail::ValueArg, cub::NullType>;
  Init init{};
  if constexpr (WithInit) init.bytes = init_bytes.bytes;
  // The accumulator (a template argument) only names CUB's defaults, all given here.
  const cudaError_t err =
      cub::detail::scan::dispatch<cub::ForceInclusive::No, /*StableReductionOrder=*/false, In, Out, OpArg,
                                  Init, OffsetT, Item, RuntimePolicySelector, BoundKernels,
                                  DriverLauncherFactory>(
          d_temp_storage, temp_storage_bytes, algos::detail::iterator_arg<In, Item>(d_in),
          algos::detail::iterator_arg<Out, Item>(d_out), OpArg{op_state}, init,
          static_cast<OffsetT>(num_items), stream, RuntimePolicySelector{&params}, BoundKernels{&params},
          DriverLauncherFactory{params.launch, &status});
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query (invoke_lookback, invoke_lookahead in CCCL 3.5) in closed
// form from the bound policy and layout: look-back aliases one tile state (its
// AllocationSize: core/tile_state.hpp); look-ahead, one look-ahead state per tile and a
// 4-byte counter, and one byte for an empty problem (dispatch.hpp DispatchFn).
template <class OffsetT>
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
    const std::uint64_t states_bytes = ceil_div(num_items, tile) * params.layout.lookahead_bytes;
    temp_storage_bytes = num_items == 0 ? 1 : alias_bytes(states_bytes, sizeof(std::uint32_t));
    return CUDA_SUCCESS;
  }
  const std::uint64_t tiles = ceil_div(num_items, p.block_threads * p.items_per_thread);
  temp_storage_bytes = alias_bytes(algos::detail::tile_state_bytes(params.layout.lookback, tiles));
  return CUDA_SUCCESS;
}

// f(type_identity<T>, type_identity<A>) for the stand-ins of an element of `element_size`
// bytes and its accumulator of `accum_size` (the pairs promoted_accumulator gives, or a
// struct of 12 to 32 bytes with its own), else a value-initialized result.
template <class F>
auto on_stand_ins(std::size_t element_size, std::size_t accum_size, F&& f) {
  using R = decltype(f(std::type_identity<Word<1>>{}, std::type_identity<Word<1>>{}));
  if (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8) {
    if (accum_size != element_size) return R{};
    return algos::detail::on_element_size(element_size, [&](auto n) -> R {
      constexpr std::size_t kN = decltype(n)::value;
      if constexpr (kN == 12 || kN == 16 || kN == 24 || kN == 32)
        return f(std::type_identity<StructBytes<kN>>{}, std::type_identity<StructBytes<kN>>{});
      else
        return R{};
    });
  }
  return algos::detail::on_accumulator(element_size, accum_size, [&](auto n, auto a) {
    return f(std::type_identity<Word<decltype(n)::value>>{}, std::type_identity<Word<decltype(a)::value>>{});
  });
}

}  // namespace

std::optional<StateLayout> state_layout(std::size_t element_size, std::size_t accum_size) noexcept {
  return on_stand_ins(element_size, accum_size, [](auto t, auto a) -> std::optional<StateLayout> {
    using T = typename decltype(t)::type;
    using A = typename decltype(a)::type;
    static_assert(std::is_same_v<cub::ScanTileState<A>, cub::ScanTileState<A, true>> == (sizeof(A) <= 8),
                  "CUB gives the device's accumulators of up to 8 bytes (scalars, small structs) the "
                  "single-word tile state and structs of 12 to 32 bytes the multi-word one");
    using Lookahead = cub::detail::warpspeed::tile_state_t<A>;
    return StateLayout{sizeof(T), alignof(T), sizeof(A), alignof(A),
                       algos::detail::shape_of<cub::ScanTileState<A>>(), sizeof(Lookahead)};
  });
}

DispatchFn select_dispatch(std::size_t element_size, std::size_t accum_size,
                           ScalarType offset_type, bool with_init, bool closed_form,
                           bool iterator_input, bool iterator_output) noexcept {
  if (!is_unsigned_offset(offset_type) || !state_layout(element_size, accum_size)) return nullptr;
  using Entry = algos::detail::ClosedForm<DispatchFn>;
  return algos::detail::on_unsigned_offset(offset_type, [&](auto offset) -> DispatchFn {
    using OffsetT = decltype(offset);
    return algos::detail::on_flag(with_init, [&](auto init) {
      return algos::detail::on_iterator_args<Item>(iterator_input, iterator_output, [&](auto in, auto out) {
        return Entry::select<&closed_form_bytes<OffsetT>,
                             &run_dispatch<OffsetT, decltype(init)::value, decltype(in), decltype(out)>>(
            closed_form);
      });
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
    abi.type<CubTileArg<Word<1>>>("tile1").type<CubTileArg<Word<8>>>("tile8");
    abi.type<cub::ScanTileState<Word<2>>::TxnWord>("txn2");
    abi.type<cub::detail::warpspeed::tile_state_t<Word<2>>>("ws2");
    abi.type<Word<1>>("w1").type<Word<2>>("w2").type<Word<4>>("w4").type<Word<8>>("w8");
    // A struct's stand-ins (12 and 32 bytes: alignments 4 and 8), their initial value
    // and multi-word tile state.
    abi.type<StructBytes<12>>("s12").type<StructBytes<32>>("s32");
    abi.type<cub::detail::InputValue<StructBytes<12>>>("init_s12");
    abi.type<cub::detail::InputValue<StructBytes<32>>>("init_s32");
    abi.type<CubTileArg<StructBytes<12>>>("tile_s12");
    abi.type<cub::detail::warpspeed::tile_state_t<StructBytes<12>>>("ws_s12");
  });
}
template const std::string& InclusiveScan::dispatch_abi();
template const std::string& ExclusiveScan::dispatch_abi();

}  // namespace cccl_cache::algos
