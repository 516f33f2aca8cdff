// CCCL 3.5's segmented reduce host dispatch (cub::detail::segmented_reduce::dispatch,
// what DeviceSegmentedReduce::Reduce calls; its host code compiled here by nvcc) driven
// by the kernel a bind resolved, through the core's launcher factory, with the build's
// policy values as a run-time policy selector.
//
// The device kernel was instantiated by the build (codegen.cpp) with T* input and
// output, offset* begin and end offsets (or, where the spec has an iterator, the four
// generated iterator structs), T init and an empty operator type. Host
// stand-ins of the same size give the dispatch the same arguments (the driver copies each
// by the size the kernel declares): nothing here depends on what the elements are, scalars
// or structs.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_segmented_reduce.cuh>

#include <cstring>

#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "segmented_reduce/dispatch.hpp"

namespace cccl_cache::algos::segmented_reduce::detail {
namespace {

using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
using algos::detail::OpArg;

// The build chose the policy for the target CC: the host dispatch reads the block's
// thread count and the warp paths' tiles (items per tile, segments per block); vector
// width, algorithm and load modifier are the device code's own.
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::SegmentedReducePolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    const int threads = static_cast<int>(p.threads);
    const auto warp = [&](std::uint32_t warp_threads, std::uint32_t items) {
      return cub::SegmentedReduceWarpReducePolicy{threads, static_cast<int>(warp_threads),
                                                  static_cast<int>(items), 1, cub::LOAD_LDG};
    };
    return {cub::ReducePassPolicy{threads, static_cast<int>(p.items), 1,
                                  cub::BLOCK_REDUCE_WARP_REDUCTIONS, cub::LOAD_LDG},
            warp(p.medium_warp_threads, p.medium_items), warp(p.small_warp_threads, p.small_items)};
  }
};

struct BoundKernel {
  const DispatchParams* params;
  CUfunction SegmentedReduceKernel() const {
    return params->launch->kernels[segmented_reduce_kernel].function;
  }
};

// Iterators: the four arguments as AdvancingIterArg (a PackedIterator at each address,
// advanced between launches), else arrays.
template <std::size_t T, class OffsetT, bool Iterators>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                      std::uint64_t num_segments, const void* d_begin_offsets,
                      const void* d_end_offsets, const void* h_init, std::uint64_t max_segment_size,
                      CUstream stream, const void* op_state) noexcept {
  using ItemT = Bytes<T>;
  if (num_segments > static_cast<std::uint64_t>(INT64_MAX)) return CUDA_ERROR_INVALID_VALUE;
  ItemT init{};
  if (d_temp_storage != nullptr) {
    if (h_init == nullptr) return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(&init, h_init, T);
  }
  using algos::detail::AdvancingIterArg;
  using algos::detail::iterator_arg;
  using In = std::conditional_t<Iterators, AdvancingIterArg, ItemT*>;
  using Off = std::conditional_t<Iterators, AdvancingIterArg, OffsetT*>;
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err = cub::detail::segmented_reduce::dispatch<ItemT, OffsetT>(
      d_temp_storage, temp_storage_bytes, iterator_arg<In, ItemT>(d_in),
      iterator_arg<In, ItemT>(d_out), static_cast<std::int64_t>(num_segments),
      iterator_arg<Off, OffsetT>(d_begin_offsets), iterator_arg<Off, OffsetT>(d_end_offsets),
      OpArg{op_state}, init, static_cast<std::size_t>(max_segment_size), stream,
      RuntimePolicySelector{&params}, BoundKernel{&params},
      DriverLauncherFactory{params.launch, &status});
  return algos::detail::dispatch_result(err, status);
}

}  // namespace

DispatchFn select_dispatch(std::size_t type_size, ScalarType offset_type, bool iterators) noexcept {
  return algos::detail::on_element_size(type_size, [&](auto t) {
    return algos::detail::on_offset(offset_type, [&](auto o) -> DispatchFn {
      constexpr std::size_t kT = decltype(t)::value;
      using O = typename decltype(o)::type;
      return iterators ? &run_dispatch<kT, O, true> : &run_dispatch<kT, O, false>;
    });
  });
}

}  // namespace cccl_cache::algos::segmented_reduce::detail

namespace cccl_cache::algos {

const std::string& SegmentedReduce::dispatch_abi() {
  using namespace segmented_reduce::detail;  // its DispatchParams
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernel's argument types (their order is CUB's, covered by cub=).
    abi.type<algos::detail::OpArg>("op").type<std::size_t>("max_segment_size");
    abi.byte_types();
  });
}

}  // namespace cccl_cache::algos
