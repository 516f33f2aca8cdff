// CUB's scan-by-key host dispatch driven by bound CUfunctions (dispatch.cu, built by
// nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::scan_by_key::detail {

// Everything CUB's scan-by-key dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch, the device facts.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's; the dispatch reads its values as CUB's ints
};

// One instantiation of CCCL 3.5's cub::detail::scan_by_key::dispatch for a (key size,
// value size, accumulator size, offset type, inclusive/exclusive, arrays/iterators). d_temp_storage == nullptr: sets
// temp_storage_bytes to CUB's answer, in closed form from the bound policy (no dispatch,
// no driver call). Otherwise launches the init and scan kernels through params.launch.
// `h_init`: the exclusive scan's initial value (value bytes on the host), ignored by an
// inclusive scan. Returns CUDA_ERROR_INVALID_VALUE for more items than the offset type
// or CUB's int tile count (plus its warp of padding) can index, a too small temp storage,
// a context without the grid's x limit or an exclusive launch
// with no h_init, or the first launch error. For an iterator spec, d_keys_in, d_values_in
// and d_values_out are the addresses of the three arguments' packed bytes (an array packed
// as an array iterator).
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_keys_in,
                                const void* d_values_in, void* d_values_out,
                                std::uint64_t num_items, const void* h_init,
                                CUstream stream) noexcept;

// The instantiation, or nullptr (a size not 1/2/4/8, an accumulator size
// promoted_accumulator (core/accumulator.hpp) does not give for the value size, offset
// not uint32/uint64).
// closed_form false: the same dispatch answering size queries through CUB's whole host
// dispatch, the reference the closed form is tested equal to
// (test_scan_by_key_dispatch). iterators: the spec's iterators() (all three arguments
// packed iterators).
DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, std::size_t accum_size,
                           ScalarType offset_type, bool exclusive, bool closed_form = true,
                           bool iterators = false) noexcept;

}  // namespace cccl_cache::algos::scan_by_key::detail
