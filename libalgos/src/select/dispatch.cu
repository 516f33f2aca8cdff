// select's host dispatch: CCCL 3.5's cub::detail::select::dispatch_policy for
// DeviceSelect::If (SelectImpl::Select, an int64 count) over the kernels a bind resolved.
// CCCL 3.5's select dispatch names its kernels itself (no kernel source) and reads its
// policy at compile time, so it cannot launch ours: this mirrors it step by step with
// CUB's own host pieces (the tile state, the streaming context, alias_temporaries) and
// launches through the core's launcher. test_select_dispatch holds it against CUB's own
// dispatch (sizes and every launch, on a recording launcher factory).
//
// The device kernels were instantiated by the build (codegen.cpp) with T* input and
// output, no flags (NullType*), a S* count, ScanTileState<int>, an empty predicate type,
// NullType equality and streaming_context_t<int64, true>; the same types (or stand-ins of
// their size and alignment) give the launches the same argument layout.
#include "core/launch.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_select_if.cuh>

#include <algorithm>
#include <limits>

#include "cccl_cache/algos/select/build_result.hpp"
#include "core/temp_storage.hpp"
#include "select/dispatch.hpp"

namespace cccl_cache::algos::select::detail {
namespace {

using algos::detail::DriverLauncherFactory;
using algos::detail::OpArg;
using OffsetT = std::int64_t;  // DeviceSelect::If's ::cuda::std::int64_t num_items
using PartitionOffsetT = cub::detail::select::per_partition_offset_t;
using TileStateT = cub::ScanTileState<PartitionOffsetT>;
using ContextT = cub::detail::select::streaming_context_t<OffsetT, true>;
// The items' and count's pointers: the dispatch passes them to the kernels, never reads
// through them.
using ItemPtr = unsigned char*;
using SelectedPtr = unsigned char*;

// CUB's partitioning of a call: at most INT32_MAX items per partition (its int offsets),
// rounded down to whole tiles.
struct Partitions {
  OffsetT tile;
  OffsetT size;   // items of every partition but the last
  OffsetT count;  // at least 1
  OffsetT tiles;  // of the largest partition
};
Partitions partitions(const Policy& p, OffsetT num_items) noexcept {
  const OffsetT tile = OffsetT{p.threads} * p.items;  // at most 1024 x 256: Select::check
  constexpr OffsetT kMax = std::numeric_limits<PartitionOffsetT>::max();
  const OffsetT size = std::min(num_items, kMax - kMax % tile);
  const OffsetT count = size == 0 ? 1 : (num_items + size - 1) / size;
  return {tile, size, count, (size + tile - 1) / tile};
}

// CUB's allocations: the tile states of the largest partition, the (empty) virtual
// shared memory, and two counts carried between partitions where there are several.
cudaError_t allocations(const DispatchParams& params, const Partitions& parts,
                        void* d_temp_storage, std::size_t& temp_storage_bytes, void* (&out)[3],
                        std::size_t (&sizes)[3]) noexcept {
  sizes[1] = static_cast<std::size_t>(parts.tiles) * params.policy.vsmem_per_block;
  sizes[2] = parts.count > 1 ? 2 * sizeof(OffsetT) : 0;
  if (const cudaError_t e = TileStateT::AllocationSize(static_cast<int>(parts.tiles), sizes[0]))
    return e;
  return cub::detail::alias_temporaries(d_temp_storage, temp_storage_bytes, out, sizes);
}

// In, Out: the items' array (ItemPtr) or IterArg (an iterator's packed bytes at d_in,
// d_out); the streaming context offsets them per partition in the kernel.
template <class In, class Out>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                      void* d_num_selected_out, std::uint64_t num_items_in,
                      CUstream stream, const void* op_state) noexcept {
  if (num_items_in > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  const auto num_items = static_cast<OffsetT>(num_items_in);
  const Partitions parts = partitions(params.policy, num_items);
  void* temp[3] = {};
  std::size_t sizes[3] = {};
  CUresult status = CUDA_SUCCESS;
  using algos::detail::dispatch_result;
  if (const cudaError_t e =
          allocations(params, parts, d_temp_storage, temp_storage_bytes, temp, sizes))
    return dispatch_result(e, status);
  if (d_temp_storage == nullptr) return CUDA_SUCCESS;

  const DriverLauncherFactory launcher{params.launch, &status};
  const CUfunction init = params.launch->kernels[init_kernel].function;
  const CUfunction sweep = params.launch->kernels[sweep_kernel].function;
  const In in = algos::detail::iterator_arg<In, unsigned char>(d_in);
  const Out out = algos::detail::iterator_arg<Out, unsigned char>(d_out);
  const auto selected = static_cast<SelectedPtr>(d_num_selected_out);
  auto* carried = static_cast<OffsetT*>(temp[2]);
  ContextT context{carried, carried + 1, num_items, parts.count <= 1};
  for (OffsetT part = 0; part < parts.count; ++part) {
    const OffsetT offset = part * parts.size;
    const OffsetT items = part + 1 == parts.count ? num_items - offset : parts.size;
    const auto tiles = static_cast<int>((items + parts.tile - 1) / parts.tile);
    TileStateT tile_state;
    if (const cudaError_t e = tile_state.Init(tiles, temp[0], sizes[0]))
      return dispatch_result(e, status);
    const int init_grid = std::max(1, (tiles + int{kInitBlockThreads} - 1) / int{kInitBlockThreads});
    cudaError_t e = launcher(init_grid, kInitBlockThreads, 0, stream).doit(init, tile_state, tiles, selected);
    if (e != cudaSuccess || items == 0) return dispatch_result(e, status);
    e = launcher(tiles, params.policy.threads, 0, stream)
            .doit(sweep, in, static_cast<cub::NullType*>(nullptr), out, selected, tile_state,
                  OpArg{op_state}, cub::NullType{}, static_cast<PartitionOffsetT>(items), tiles,
                  context, cub::detail::vsmem_t{temp[1]});
    if (e != cudaSuccess) return dispatch_result(e, status);
    context.advance(items, part + 2 == parts.count);
  }
  return CUDA_SUCCESS;
}

// The size query in closed form (dispatch.hpp DispatchFn): the largest partition's tile
// states, aliased with the empty virtual shared memory and, for several partitions, the
// two carried counts.
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, void*, void*, std::uint64_t num_items, CUstream,
                           const void*) noexcept {
  using algos::detail::alias_bytes;
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  const Partitions parts = partitions(params.policy, static_cast<OffsetT>(num_items));
  const std::uint64_t states =
      algos::detail::tile_state_bytes(static_cast<std::uint64_t>(parts.tiles), sizeof(TileStateT::TxnWord));
  temp_storage_bytes = static_cast<std::size_t>(
      alias_bytes(states, 0, parts.count > 1 ? 2 * sizeof(OffsetT) : 0));
  return CUDA_SUCCESS;
}

template <class In, class Out>
DispatchFn with_args(bool closed_form) noexcept {
  return algos::detail::ClosedForm<DispatchFn>::select<&closed_form_bytes, &run_dispatch<In, Out>>(
      closed_form);
}

}  // namespace

DispatchFn select_dispatch(bool closed_form, bool input_iterator, bool output_iterator) noexcept {
  using algos::detail::IterArg;
  if (input_iterator)
    return output_iterator ? with_args<IterArg, IterArg>(closed_form) : with_args<IterArg, ItemPtr>(closed_form);
  return output_iterator ? with_args<ItemPtr, IterArg>(closed_form) : with_args<ItemPtr, ItemPtr>(closed_form);
}

}  // namespace cccl_cache::algos::select::detail

namespace cccl_cache::algos {

const std::string& Select::dispatch_abi() {
  using namespace select::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<ItemPtr>("items").type<OpArg>("op").type<cub::NullType>("null");
    abi.type<SelectedPtr>("selected").type<TileStateT>("tile").type<ContextT>("context");
    abi.type<PartitionOffsetT>("partition").type<cub::detail::vsmem_t>("vsmem");
  });
}

}  // namespace cccl_cache::algos
