// The shape of one of CUB's single-pass tile states (cub::ScanTileState<A> for the scans,
// cub::ReduceByKeyScanTileState<A, int> for scan by key) for the kernels' accumulator A,
// as CUB gives it to a host stand-in of A's layout (core/tile_state.cuh shape_of). Fixed at
// bind, it lets a host dispatch size, lay out and pass the device's tile state without an
// accumulator type of its own (core/tile_state.cuh RuntimeTileState). Private to libalgos.
#pragma once

#include <cstdint>

#include "core/temp_storage.hpp"

namespace cccl_cache::algos::detail {

struct TileShape {
  // Single-word: one transaction word per tile holding status and value. Multi-word: a
  // status word and two payloads (partial and inclusive value) per tile.
  bool single_word = true;
  // A single-word state allocated as (tiles + a warp) words as such
  // (ReduceByKeyScanTileState's AllocationSize), not through CUB's
  // tile_state_allocation_size (ScanTileState's: three aliased allocations, two empty).
  bool plain_words = false;
  std::uint32_t word_bytes = 0;     // the transaction word (single) or status word (multi)
  std::uint32_t payload_bytes = 0;  // multi-word: one partial or inclusive value; single: 0
  std::uint32_t arg_bytes = 0;      // the state as a kernel argument: its pointers' bytes
  bool operator==(const TileShape&) const = default;
};

// What the state asks for `tiles` tiles (its AllocationSize), in closed form.
constexpr std::uint64_t tile_state_bytes(const TileShape& shape, std::uint64_t tiles) noexcept {
  if (shape.single_word && shape.plain_words) return (32 + tiles) * shape.word_bytes;
  return tile_state_bytes(tiles, shape.word_bytes, shape.payload_bytes);
}

}  // namespace cccl_cache::algos::detail
