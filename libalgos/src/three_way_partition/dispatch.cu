// CCCL 3.5's three-way partition host dispatch (cub::detail::three_way_partition::dispatch,
// what DevicePartition::If with two predicates calls; its host code compiled here by
// nvcc) driven by the kernels a bind resolved, through the core's launcher factory, with
// the build's policy values as a run-time policy selector.
//
// The device kernels were instantiated by the build (codegen.cpp) with T* input and
// outputs (or, where the spec has an iterator, four generated iterator structs), a S*
// count pair, CUB's packed tile state, empty predicate types and
// streaming_context_t<offset>; stand-ins of their size and alignment give the launches
// the same argument layout: nothing here depends on what the items are.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_three_way_partition.cuh>

#include <limits>

#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "core/temp_storage.hpp"
#include "three_way_partition/dispatch.hpp"

namespace cccl_cache::algos::three_way_partition::detail {
namespace {

namespace twp = cub::detail::three_way_partition;
using algos::detail::DriverLauncherFactory;
using algos::detail::OpArg;
// The items' and counts' pointers: the dispatch passes them to the kernels, never reads
// through them.
using ItemPtr = unsigned char*;
using SelectedPtr = unsigned char*;
using PartitionOffsetT = twp::per_partition_offset_t;

// The build chose the policy for the target CC: the host dispatch reads the tile shape;
// the rest is the device code's own.
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::ThreeWayPartitionPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    cub::ThreeWayPartitionPolicy r{};
    const auto& v = algos::detail::policy_to_cub;
    CCCL_CACHE_THREE_WAY_PARTITION_POLICY(CCCL_CACHE_POLICY_MIRROR)
    return r;
  }
};

struct BoundKernels {
  const DispatchParams* params;
  CUfunction ThreeWayPartitionInitKernel() const { return params->launch->kernels[init_kernel].function; }
  CUfunction ThreeWayPartitionKernel() const { return params->launch->kernels[partition_kernel].function; }
};

// Arg: the items' arrays (ItemPtr) or IterArg (each argument the address of an
// iterator's packed bytes), passed to every partition's launch unchanged: the kernel
// offsets its reads and writes by the streaming context.
template <class OffsetT, class Arg>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_in, void* d_first_part_out,
                      void* d_second_part_out, void* d_unselected_out, void* d_num_selected_out,
                      std::uint64_t num_items, CUstream stream, const void* first_op_state,
                      const void* second_op_state) noexcept {
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  const auto arg = [](const void* p) { return algos::detail::iterator_arg<Arg, unsigned char>(p); };
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err = twp::dispatch(
      d_temp_storage, temp_storage_bytes, arg(d_in), arg(d_first_part_out),
      arg(d_second_part_out), arg(d_unselected_out),
      static_cast<SelectedPtr>(d_num_selected_out), OpArg{first_op_state}, OpArg{second_op_state},
      static_cast<OffsetT>(num_items), stream, RuntimePolicySelector{&params},
      BoundKernels{&params}, DriverLauncherFactory{params.launch, &status});
  return algos::detail::dispatch_result(err, status);
}

// The size query in closed form (dispatch.hpp DispatchFn): the largest partition's tile
// states (CUB's packed pair of int counts per tile), aliased with, for several
// partitions, the two sets of three counts carried between them.
template <class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, void*, void*, void*, void*, std::uint64_t num_items,
                           CUstream, const void*, const void*) noexcept {
  using algos::detail::alias_bytes;
  using algos::detail::ceil_div;
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  constexpr std::uint64_t kPartition = std::numeric_limits<PartitionOffsetT>::max();
  const std::uint64_t partition = num_items < kPartition ? num_items : kPartition;
  const bool several = partition != 0 && num_items > partition;
  const std::uint64_t tiles = ceil_div(partition, params.policy.threads * params.policy.items);
  const std::uint64_t states =
      algos::detail::tile_state_bytes(tiles, sizeof(twp::ScanTileStateT::TxnWord));
  temp_storage_bytes =
      static_cast<std::size_t>(alias_bytes(states, several ? 6 * sizeof(OffsetT) : 0));
  return CUDA_SUCCESS;
}

}  // namespace

DispatchFn select_dispatch(ScalarType offset_type, bool closed_form, bool iterators) noexcept {
  return algos::detail::on_offset(offset_type, [&](auto o) -> DispatchFn {
    using OffsetT = typename decltype(o)::type;
    using algos::detail::ClosedForm;
    using algos::detail::IterArg;
    if constexpr (!std::is_signed_v<OffsetT>) return nullptr;  // DevicePartition::If's are signed
    else if (iterators)
      return ClosedForm<DispatchFn>::select<&closed_form_bytes<OffsetT>,
                                            &run_dispatch<OffsetT, IterArg>>(closed_form);
    else
      return ClosedForm<DispatchFn>::select<&closed_form_bytes<OffsetT>,
                                            &run_dispatch<OffsetT, ItemPtr>>(closed_form);
  });
}

}  // namespace cccl_cache::algos::three_way_partition::detail

namespace cccl_cache::algos {

const std::string& ThreeWayPartition::dispatch_abi() {
  using namespace three_way_partition::detail;  // its DispatchParams and stand-ins
  namespace twp = cub::detail::three_way_partition;
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<ItemPtr>("items").type<SelectedPtr>("selected").type<OpArg>("op");
    abi.type<twp::ScanTileStateT>("tile").type<PartitionOffsetT>("partition");
    abi.type<twp::streaming_context_t<std::int32_t>>("context32");
    abi.type<twp::streaming_context_t<std::int64_t>>("context64");
  });
}

}  // namespace cccl_cache::algos
