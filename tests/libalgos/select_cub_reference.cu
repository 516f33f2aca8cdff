// CUB's own select dispatch with a recording launcher factory (select_cub_reference.hpp).
// core/launch.cuh first: CUB's statuses pass unchanged (no runtime call), as in
// libalgos' dispatches.
#include "core/launch.cuh"

#include <cub/device/dispatch/dispatch_select_if.cuh>

#include <cstring>
#include <type_traits>

#include "select_cub_reference.hpp"

namespace test_support {
namespace {

using Context = cub::detail::select::streaming_context_t<std::int64_t, true>;
using TileState = cub::ScanTileState<cub::detail::select::per_partition_offset_t>;
static_assert(sizeof(Context) == 40 && sizeof(TileState) == 8);

template <int Threads, int Items>
struct FixedPolicy {
  constexpr cub::SelectPolicy operator()() const {
    return {cub::SelectAlgorithm::lookback,
            {Threads, Items, cub::BLOCK_LOAD_DIRECT, cub::LOAD_DEFAULT, cub::BLOCK_SCAN_WARP_SCANS,
             cub::LookbackDelayPolicy{}}};
  }
};

template <class T>
std::uintptr_t address(const T& p) {
  std::uintptr_t a = 0;
  std::memcpy(&a, &p, sizeof(a));
  return a;
}

struct Recorder {
  SelectCall* call;
  unsigned grid, block;

  template <class Kernel, class... Args>
  cudaError_t doit(Kernel, const Args&... args) const {
    SelectLaunch l;
    l.grid = grid;
    l.block = block;
    record(l, args...);
    call->launches.push_back(l);
    return cudaSuccess;
  }
  template <class TS, class Sel>
  static void record(SelectLaunch& l, const TS& tile_state, int num_tiles, const Sel& selected) {
    std::memcpy(l.tile_state.data(), &tile_state, sizeof(TileState));
    l.num_tiles = num_tiles;
    l.selected = address(selected);
  }
  template <class In, class Flags, class Out, class Sel, class TS, class Op, class Eq, class Off,
            class Ctx, class V>
  static void record(SelectLaunch& l, const In& in, const Flags&, const Out& out, const Sel& selected,
                     const TS& tile_state, const Op&, const Eq&, const Off& num_items, int num_tiles,
                     const Ctx& context, const V& vsmem) {
    l.sweep = true;
    l.in = address(in);
    l.out = address(out);
    l.selected = address(selected);
    std::memcpy(l.tile_state.data(), &tile_state, sizeof(TileState));
    l.num_items = num_items;
    l.num_tiles = num_tiles;
    std::memcpy(l.context.data(), &context, sizeof(Context));
    clear_context_padding(l.context);
    l.vsmem = address(vsmem);
  }
};

struct RecordingFactory {
  SelectCall* call;
  Recorder operator()(dim3 grid, dim3 block, std::size_t, cudaStream_t, bool = false) const {
    return {call, grid.x, block.x};
  }
};

struct IsPositive {
  __device__ bool operator()(int x) const { return x > 0; }
};

template <int Threads, int Items>
SelectCall run(void* d_temp_storage, std::size_t bytes, const void* d_in, void* d_out,
               void* d_num_selected, std::int64_t num_items) {
  SelectCall call;
  call.bytes = bytes;
  using Selector = cub::detail::select::policy_selector_from_types<int*, cub::NullType*, int*, std::int64_t,
                                                                   cub::SelectImpl::Select>;
  call.status = cub::detail::select::dispatch_policy<cub::SelectImpl::Select>(
      FixedPolicy<Threads, Items>{}, d_temp_storage, call.bytes,
      static_cast<int*>(const_cast<void*>(d_in)), static_cast<cub::NullType*>(nullptr),
      static_cast<int*>(d_out), static_cast<std::uint64_t*>(d_num_selected), IsPositive{}, cub::NullType{},
      num_items, nullptr, Selector{}, RecordingFactory{&call});
  return call;
}

}  // namespace

void clear_context_padding(std::array<unsigned char, 40>& context) {
  std::memset(context.data() + 2, 0, 6);
}

SelectCall cub_select(std::size_t policy, void* d_temp_storage, std::size_t temp_storage_bytes,
                      const void* d_in, void* d_out, void* d_num_selected, std::int64_t num_items) {
  if (policy == 0)
    return run<128, 8>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items);
  return run<512, 14>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items);
}

}  // namespace test_support
