// CCCL 3.5's reduce host dispatch (cub::detail::reduce::dispatch, the policy-selector
// dispatch DeviceReduce::Reduce calls; its host code compiled here by nvcc) driven by
// the kernels a bind resolved, through the core's launcher factory, with the build's
// policy values as a run-time policy selector.
//
// The device kernels were instantiated by the build (codegen.cpp) with T* input and
// output (or the spec's iterators in their place), CUB's accumulator for the operator, T init and an empty operator type.
// Host stand-ins of the same size and alignment give the dispatch the same argument
// layout: nothing here depends on what the elements are.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_reduce.cuh>

#include <cstring>

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "core/temp_storage.hpp"
#include "reduce/dispatch.hpp"

namespace cccl_cache::algos::reduce::detail {
namespace {

using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
using algos::detail::OpArg;

// The build chose the policy for the target CC: the host dispatch reads only the two
// passes' tile shapes; the algorithm and vector width are CUB's for run-to-run
// deterministic reductions (documentation: the device code has its own).
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::ReducePolicy operator()(::cuda::compute_capability) const {
    const auto pass = [](int threads, int items) {
      return cub::ReducePassPolicy{threads, items, 1, cub::BLOCK_REDUCE_WARP_REDUCTIONS,
                                   cub::LOAD_LDG};
    };
    return {pass(params->multi_tile_threads, params->multi_tile_items),
            pass(params->single_tile_threads, params->single_tile_items)};
  }
};

template <std::size_t T, std::size_t A>
struct BoundKernels {
  const DispatchParams* params;
  CUfunction kernel(Kernel k) const { return params->launch->kernels[k].function; }
  CUfunction SingleTileKernel() const { return kernel(single_tile_kernel); }
  CUfunction ReductionKernel() const { return kernel(reduce_kernel); }
  CUfunction SingleTileSecondKernel() const { return kernel(second_pass_kernel); }
  static constexpr std::size_t AccumSize() { return A; }
  static constexpr std::size_t InitSize() { return T; }
};

// In, Out: the element stand-in's array or IterArg (an iterator's packed bytes at d_in,
// d_out).
template <std::size_t T, std::size_t A, class OffsetT, class In, class Out>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                      std::uint64_t num_items, const void* h_init, CUstream stream,
                      const void* op_state) noexcept {
  using ItemT = Bytes<T>;
  using AccumT = Bytes<A>;
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  ItemT init{};
  if (d_temp_storage != nullptr) {
    if (h_init == nullptr) return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(&init, h_init, T);
  }
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err =
      cub::detail::reduce::dispatch<AccumT, true, In, Out, OffsetT, OpArg, ItemT,
                                    ::cuda::std::identity, AccumT, RuntimePolicySelector,
                                    BoundKernels<T, A>, DriverLauncherFactory>(
          d_temp_storage, temp_storage_bytes, algos::detail::iterator_arg<In, ItemT>(d_in),
          algos::detail::iterator_arg<Out, ItemT>(d_out), static_cast<OffsetT>(num_items), OpArg{op_state}, init,
          stream, ::cuda::std::identity{}, RuntimePolicySelector{&params},
          BoundKernels<T, A>{&params}, DriverLauncherFactory{params.launch, &status});
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query (cub::detail::reduce::dispatch in CCCL 3.5) in closed
// form, from the bound policy and launch context (dispatch.hpp DispatchFn).
template <std::size_t T, std::size_t A, class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, void*, std::uint64_t num_items, const void*,
                           CUstream, const void*) noexcept {
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  const std::uint64_t single_tile = static_cast<std::uint64_t>(params.single_tile_threads) *
                                    static_cast<std::uint64_t>(params.single_tile_items);
  if (num_items <= single_tile) {
    temp_storage_bytes = 1;
    return CUDA_SUCCESS;
  }
  const std::uint64_t max_blocks = algos::detail::even_share_blocks(*params.launch, reduce_kernel);
  temp_storage_bytes = static_cast<std::size_t>(algos::detail::alias_bytes(max_blocks * A));
  return CUDA_SUCCESS;
}

}  // namespace

DispatchFn select_dispatch(std::size_t type_size, std::size_t accum_size, ScalarType offset_type,
                           bool closed_form, bool iterator_input, bool iterator_output) noexcept {
  using algos::detail::on_size;
  using Entry = algos::detail::ClosedForm<DispatchFn>;
  if (!is_unsigned_offset(offset_type)) return nullptr;
  // The instantiations for item stand-in size kT and accumulator size kA.
  auto with_sizes = [&](auto t, auto a) -> DispatchFn {
    constexpr std::size_t kT = decltype(t)::value, kA = decltype(a)::value;
    auto entry = [&](auto offset, auto in, auto out) -> DispatchFn {
      using O = decltype(offset);
      return Entry::select<&closed_form_bytes<kT, kA, O>,
                           &run_dispatch<kT, kA, O, decltype(in), decltype(out)>>(closed_form);
    };
    return algos::detail::on_unsigned_offset(offset_type, [&](auto offset) {
      return algos::detail::on_iterator_args<Bytes<kT>>(
          iterator_input, iterator_output,
          [&](auto in, auto out) { return entry(offset, in, out); });
    });
  };
  if (type_size != 1 && type_size != 2 && type_size != 4 && type_size != 8) {
    // A struct of 12 to 32 bytes: its own accumulator, from and into arrays or zips.
    if (accum_size != type_size) return nullptr;
    return algos::detail::on_element_size(type_size, [&](auto t) { return with_sizes(t, t); });
  }
  return on_size(type_size, [&](auto t) {
    return on_size(accum_size, [&](auto a) { return with_sizes(t, a); });
  });
}

}  // namespace cccl_cache::algos::reduce::detail

namespace cccl_cache::algos {

const std::string& Reduce::dispatch_abi() {
  using namespace reduce::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, multi_tile_threads);
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, multi_tile_items);
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, single_tile_threads);
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, single_tile_items);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<OpArg>("op").type<::cuda::std::identity>("identity");
    abi.type<cub::GridEvenShare<std::uint32_t>>("even_share32");
    abi.type<cub::GridEvenShare<unsigned long long>>("even_share64");
    abi.byte_types();
  });
}

}  // namespace cccl_cache::algos
