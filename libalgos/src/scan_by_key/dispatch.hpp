// CUB's scan-by-key host dispatch driven by bound CUfunctions (dispatch.cu, built by
// nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "core/launch.hpp"
#include "core/tile_state.hpp"

namespace cccl_cache::algos::scan_by_key::detail {

// The shape of CUB's ReduceByKeyScanTileState<A, int> for the kernels' accumulator A
// (core/tile_state.hpp), as CUB gives it to a type of A's size and alignment
// (tile_shape): single-word (one transaction word per tile holding status, key and value)
// or multi-word (a status word and two payloads per tile: cub::ScanTileState<KeyValuePair<int,
// A>>).
using algos::detail::TileShape;

// CUB's tile-state shape for an accumulator of `accum_size` bytes aligned to `accum_align`:
// sizes 1, 2, 4, 8, 12, 16, 24 and 32, alignments powers of two up to 16 that divide the
// size; else none.
std::optional<TileShape> tile_shape(std::uint32_t accum_size, std::uint32_t accum_align) noexcept;

// Everything CUB's scan-by-key dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch, the device facts.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's; the dispatch reads its values as CUB's ints
  TileShape tile;  // tile_shape of the policy's accumulator
};

// One instantiation of CCCL 3.5's cub::detail::scan_by_key::dispatch for a (key size,
// offset type, inclusive/exclusive, arrays/iterators); the accumulator's tile state is
// sized at run time from params.tile, and the exclusive scan's initial value is passed as
// its bytes, so neither the value nor the accumulator type is a template argument.
// d_temp_storage == nullptr: sets temp_storage_bytes to CUB's answer, in closed form from
// the bound policy (no dispatch, no driver call). Otherwise launches the init and scan
// kernels through params.launch. `h_init`: the exclusive scan's initial value (value bytes
// on the host, read during the call), ignored by an inclusive scan. Returns
// CUDA_ERROR_INVALID_VALUE for more items than the offset type or CUB's int tile count
// (plus its warp of padding) can index, a too small temp storage, a context without the
// grid's x limit or an exclusive launch with no h_init, or the first launch error. For an
// iterator spec, d_keys_in, d_values_in and d_values_out are the addresses of the three
// arguments' packed bytes (an array packed as an array iterator).
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_keys_in,
                                const void* d_values_in, void* d_values_out,
                                std::uint64_t num_items, const void* h_init,
                                CUstream stream) noexcept;

// The instantiation, or nullptr (a key size not 1, 2, 4, 8, 12, 16, 24 or 32, an offset
// not uint32/uint64). closed_form false: the same dispatch answering size queries through
// CUB's whole host dispatch, the reference the closed form is tested equal to
// (test_scan_by_key_dispatch). iterators: the spec's iterators() (all three arguments
// packed iterators).
DispatchFn select_dispatch(std::size_t key_size, ScalarType offset_type, bool exclusive,
                           bool closed_form = true, bool iterators = false) noexcept;

}  // namespace cccl_cache::algos::scan_by_key::detail
