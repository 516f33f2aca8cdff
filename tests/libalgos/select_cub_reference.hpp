// CUB's own DeviceSelect::If host dispatch (cub::detail::select::dispatch_policy, CCCL
// 3.5, compiled by nvcc in select_cub_reference.cu) with compile-time policies and a
// recording launcher factory: what select's own dispatch (libalgos/src/select/
// dispatch.cu) mirrors, for the tests to hold it against. No kernel runs and no pointer
// is dereferenced: the launches are only recorded.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace test_support {

// One launch: which kernel (by argument count), its grid and block, and the arguments
// the two kernels share, as bytes where the host's and device's types agree.
struct SelectLaunch {
  bool sweep = false;
  unsigned grid = 0, block = 0;
  std::uintptr_t in = 0, out = 0, selected = 0, vsmem = 0;
  std::array<unsigned char, 8> tile_state{};  // ScanTileState<int>: one pointer
  int num_tiles = 0;
  int num_items = 0;                         // the sweep's partition
  std::array<unsigned char, 40> context{};   // streaming_context_t<int64, true>, padding zeroed
};

struct SelectCall {
  int status = -1;  // cudaError_t
  std::size_t bytes = 0;
  std::vector<SelectLaunch> launches;
};

// The tile shapes the reference is compiled for (threads, items per thread).
inline constexpr std::array<std::array<int, 2>, 2> kCubSelectPolicies = {{{128, 8}, {512, 14}}};

// CUB's dispatch for policy kCubSelectPolicies[policy], 4-byte items, an int64 count.
SelectCall cub_select(std::size_t policy, void* d_temp_storage, std::size_t temp_storage_bytes,
                      const void* d_in, void* d_out, void* d_num_selected, std::int64_t num_items);

// Zeroes the padding of a streaming context's bytes (after its two bools).
void clear_context_padding(std::array<unsigned char, 40>& context);

}  // namespace test_support
