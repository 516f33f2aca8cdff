// CUB's scan host dispatch driven by bound CUfunctions (dispatch.cu, built by nvcc).
// Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "cccl_cache/algos/scan/build_result.hpp"
#include "core/launch.hpp"
#include "core/tile_state.hpp"

namespace cccl_cache::algos::scan::detail {

// What the host dispatch needs of the kernels' element type T and accumulator A (which it
// does not name): their sizes and alignments, and the shapes of the tile states CUB gives
// A, all of host stand-ins of their sizes (state_layout).
struct StateLayout {
  std::uint32_t element_size = 0, element_align = 0;
  std::uint32_t accum_size = 0, accum_align = 0;
  algos::detail::TileShape lookback;  // cub::ScanTileState<A>'s
  std::uint32_t lookahead_bytes = 0;  // the look-ahead tile_state_t<A>
};

// Everything CUB's scan dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch, the device facts.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's; the dispatch reads its values as CUB's ints
  StateLayout layout;  // state_layout of the spec's element and the policy's accumulator
};

// The layout for an element of `element_size` bytes and an accumulator of `accum_size`:
// sizes 1, 2, 4, 8 with the accumulators promoted_accumulator (core/accumulator.hpp)
// gives, or a struct of 12, 16, 24 or 32 bytes with its own; else none.
std::optional<StateLayout> state_layout(std::size_t element_size, std::size_t accum_size) noexcept;

// An exclusive or seeded inclusive scan's initial value: the element's bytes on the host,
// read during the call (or none, for a size query or an unseeded scan), or (`device`) a
// pointer to one element in device memory that the kernels read when they run (CUB's
// FutureValue). Both reach the scan kernel as the one argument type InputValue<T>, whose
// flag tells them apart, so the kernels and keys are the same for both.
struct InitValue {
  InitValue(const void* host = nullptr) noexcept : ptr(host) {}  // NOLINT: a host value
  static InitValue on_device(const void* d_init) noexcept {
    InitValue v(d_init);
    v.device = true;
    return v;
  }
  const void* ptr;
  bool device = false;
};

// The initial value as the bytes of cub::detail::InputValue<T> for a T of at most 32 bytes
// aligned to at most 8 (the scan kernel's argument; the driver reads its parameter size of
// them): the flag at 0 (the value is a FutureValue's pointer), then at 8 (the union's
// alignment, its pointer's) the pointer or the value. dispatch.cu asserts the sizes, and
// the tests compare the bytes with CUB's own for every stand-in.
struct InitArg {
  alignas(8) unsigned char bytes[40] = {};
};
inline constexpr std::size_t kInitValueAt = 8;
inline InitArg init_arg(InitValue initial, std::size_t element_size) noexcept {
  InitArg arg;
  arg.bytes[0] = initial.device ? 1 : 0;
  if (initial.device)
    std::memcpy(arg.bytes + kInitValueAt, &initial.ptr, sizeof(initial.ptr));
  else if (initial.ptr != nullptr)  // size queries pass none
    std::memcpy(arg.bytes + kInitValueAt, initial.ptr, element_size);
  return arg;
}

// One instantiation of CCCL 3.5's cub::detail::scan::dispatch for an (offset type, with or
// without an initial value, arrays or iterators), for every element and accumulator
// (params.layout). d_temp_storage == nullptr: sets temp_storage_bytes to CUB's answer, in
// closed form from the bound policy and layout (no dispatch, no driver call). Otherwise
// launches the init and scan kernels through params.launch, the scan kernel's operator
// argument copied from `op_state` (detail::op_state_arg). `init`: the initial value of an
// exclusive or a seeded inclusive scan, ignored without one. Returns
// CUDA_ERROR_NOT_SUPPORTED if !policy_supported(params), CUDA_ERROR_INVALID_VALUE for
// more items than the offset type or CUB's int tile count can index or a too small temp
// storage, or the first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_in, void* d_out,
                                std::uint64_t num_items, InitValue init, CUstream stream,
                                const void* op_state) noexcept;

// with_init: the exclusive scan and the seeded inclusive one (InclusiveScanInit), whose
// host dispatch is the exclusive one's (the kernel argument is the same InputValue; only
// the device code differs, by ForceInclusive). The instantiation, or nullptr (no
// state_layout for the sizes; offset not uint32/uint64). closed_form false: the same
// dispatch answering size queries through CUB's whole host dispatch, the reference the
// closed form is tested equal to (test_scan_temp_storage).
// iterator_input: the spec's input is an iterator, and `d_in` the host address of its
// packed bytes (core/iterator.hpp IteratorArg), which the scan kernel's input argument is
// copied from; iterator_output likewise for the output and `d_out`.
DispatchFn select_dispatch(std::size_t element_size, std::size_t accum_size,
                           ScalarType offset_type, bool with_init, bool closed_form = true,
                           bool iterator_input = false, bool iterator_output = false) noexcept;
// Whether the dispatch can run this policy: a known algorithm, a positive tile shape,
// and for look-ahead the block size CUB derives from its warps.
bool policy_supported(const DispatchParams& params) noexcept;

}  // namespace cccl_cache::algos::scan::detail
