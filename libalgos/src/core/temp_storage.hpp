// CUB's temp-storage arithmetic, for the algorithms' closed-form size answers (computed
// from values fixed at bind, so that a size query runs no dispatch). Private to libalgos.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace cccl_cache::algos::detail {

// x rounded up to CUB's 256-byte allocation alignment.
constexpr std::uint64_t round256(std::uint64_t x) noexcept {
  return (x + 255) & ~std::uint64_t{255};
}

// What cub::detail::alias_temporaries (CCCL 3.5) asks for the allocations `sizes`: each
// rounded up to 256 bytes, plus 255 bytes of slack to align the blob's start.
template <class... Sizes>
constexpr std::uint64_t alias_bytes(Sizes... sizes) noexcept {
  return (round256(static_cast<std::uint64_t>(sizes)) + ... + 255);
}

// ceil(a / b) for b > 0, as ::cuda::ceil_div on unsigned operands; a 32-bit division
// when `a` fits (the common case; a 64-bit division costs several times more).
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint32_t b) noexcept {
  if (a <= UINT32_MAX) {
    const auto a32 = static_cast<std::uint32_t>(a);
    return a32 / b + (a32 % b != 0);
  }
  return a / b + (a % b != 0);
}

// What a cub::ScanTileState asks for `num_tiles` tiles (its AllocationSize): a warp of
// padding (TILE_STATUS_PADDING) and per tile a word of `word_bytes` (a single-word state's
// TxnWord, a multi-word one's StatusWord) and two payloads of `payload_bytes` (a
// multi-word state's partial and inclusive values; none for a single-word one), as three
// aliased allocations.
constexpr std::uint64_t tile_state_bytes(std::uint64_t num_tiles, std::size_t word_bytes,
                                         std::size_t payload_bytes = 0) noexcept {
  return alias_bytes((32 + num_tiles) * word_bytes, (32 + num_tiles) * payload_bytes,
                     (32 + num_tiles) * payload_bytes);
}

// The most items one call of a tiled dispatch can take: the offset type's range, and
// `max_tiles` tiles of `tile_items` (CUB counts tiles in an int; a dispatch that pads its
// tile count passes less).
template <class OffsetT>
constexpr std::uint64_t tiled_max_items(
    std::uint64_t tile_items,
    std::uint64_t max_tiles = static_cast<std::uint64_t>(std::numeric_limits<int>::max())) noexcept {
  return std::min<std::uint64_t>(tile_items * max_tiles, std::numeric_limits<OffsetT>::max());
}

}  // namespace cccl_cache::algos::detail
