// CUB's own answers (CCCL 3.5, compiled by nvcc in tile_state_cub_reference.cu) about the
// scans' tile states and initial value, for the tests to hold the library's run-time
// layouts against: libalgos' dispatches name neither the element nor the accumulator
// type, and pass the tile state and initial value as bytes laid out at bind.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace test_support {

// cub::ScanTileState<A>::AllocationSize for `num_tiles` tiles of an accumulator A of
// `size` bytes aligned to `align` (a trivially copyable struct of that layout: CUB gives
// sizes 1, 2, 4 and 8 the single-word state, as it gives scalars, and 12 to 32 the
// multi-word one). None for a layout on_layout has no stand-in for, or CUB's error.
std::optional<std::size_t> cub_scan_tile_state_bytes(std::size_t size, std::size_t align,
                                                     int num_tiles);

// cub::ReduceByKeyScanTileState<A, int>::AllocationSize, likewise (scan by key).
std::optional<std::size_t> cub_by_key_tile_state_bytes(std::size_t size, std::size_t align,
                                                       int num_tiles);

// The bytes of cub::detail::InputValue<T> for a T of `size` bytes aligned to `align`,
// made from the host value at `value` or (future) from a FutureValue of the device
// pointer `value`. `known`: the bytes CUB wrote (the same when built over zeroed and over
// set memory); the rest is padding.
struct InputValueBytes {
  std::vector<unsigned char> bytes;
  std::vector<bool> known;
};
std::optional<InputValueBytes> cub_input_value(std::size_t size, std::size_t align,
                                               const void* value, bool future);

}  // namespace test_support
