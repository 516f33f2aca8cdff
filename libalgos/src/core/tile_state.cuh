// The host side of CUB's single-pass tile states with their shape a run-time value
// (core/tile_state.hpp): the scans' and scan by key's host dispatches size, lay out and
// pass the device's tile state through RuntimeTileState, so that they are instantiated
// once for every accumulator. Include after core/launch.cuh (nvcc only).
#pragma once

#include "core/launch.cuh"

#include <cub/agent/single_pass_scan_operators.cuh>

#include <cstddef>
#include <type_traits>

#include "core/tile_state.hpp"

namespace cccl_cache::algos::detail {

// The shape CUB gives tile state TS (cub::ScanTileState<A> or
// cub::ReduceByKeyScanTileState<A, int> of a stand-in A): single-word forms have a
// transaction word (ReduceByKeyScanTileState's allocated as plain words, having no
// description_bytes_per_tile), multi-word forms a status word and two payloads.
template <class TS>
constexpr TileShape shape_of() {
  if constexpr (requires { typename TS::TxnWord; }) {
    constexpr bool plain = !requires { TS::description_bytes_per_tile; };
    return {true, plain, sizeof(typename TS::TxnWord), 0, sizeof(TS)};
  } else {
    return {false, false, TS::description_bytes_per_tile, TS::payload_bytes_per_tile, sizeof(TS)};
  }
}

// The tile state a dispatch allocates and passes to its kernels: CUB's AllocationSize and
// Init over the shape's sizes, as CUB's own single- and multi-word states compute them, and
// the device struct's pointers first (a kernel argument: the driver reads the kernel's
// parameter size of them).
struct RuntimeTileState {
  void* pointers[3] = {};
  TileShape shape;

  cudaError_t AllocationSize(int num_tiles, std::size_t& bytes) const {
    if (shape.single_word && shape.plain_words) {
      bytes = static_cast<std::size_t>(num_tiles + cub::detail::warp_threads) * shape.word_bytes;
      return cudaSuccess;
    }
    return cub::detail::tile_state_allocation_size(bytes, shape.word_bytes, shape.payload_bytes,
                                                   static_cast<std::size_t>(num_tiles));
  }
  cudaError_t Init(int num_tiles, void* d_temp_storage, std::size_t temp_storage_bytes) {
    if (shape.single_word) {
      pointers[0] = d_temp_storage;
      return cudaSuccess;
    }
    return cub::detail::tile_state_init(shape.word_bytes, shape.payload_bytes,
                                        static_cast<std::size_t>(num_tiles), d_temp_storage,
                                        temp_storage_bytes, pointers);
  }
};
static_assert(std::is_standard_layout_v<RuntimeTileState> && offsetof(RuntimeTileState, pointers) == 0);
static_assert(shape_of<cub::ScanTileState<Bytes<8>>>() == TileShape{true, false, 16, 0, 8});
static_assert(!shape_of<cub::ScanTileState<Bytes<12>>>().single_word);
static_assert(shape_of<cub::ReduceByKeyScanTileState<Bytes<8>, int>>().plain_words);
static_assert(shape_of<cub::ReduceByKeyScanTileState<Bytes<32, 4>, int>>().arg_bytes == 3 * sizeof(void*));

}  // namespace cccl_cache::algos::detail
