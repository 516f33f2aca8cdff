// CUB's unique_by_key host dispatch driven by the bound CUfunctions (dispatch.cu, built
// by nvcc). Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::unique_by_key::detail {

// Everything CUB's unique_by_key dispatch asks of its policy selector, kernel source and
// launcher factory, fixed at bind time.
struct DispatchParams {
  // The bound module's launch context (core/launch.hpp): the kernels in Kernel order,
  // the driver's launch.
  const algos::detail::LaunchContext* launch = nullptr;
  Policy policy;  // the build's
};

// One instantiation of CCCL 3.5's cub::detail::unique_by_key::dispatch (what
// DeviceSelect::UniqueByKey calls) for an offset type (it reads no key or value: one for
// every key and value type).
// d_temp_storage == nullptr: sets temp_storage_bytes to CUB's answer, in closed form
// from the bound policy (no dispatch, no driver call). Otherwise launches the init and
// sweep kernels through params.launch, the sweep's equality argument copied from
// `op_state` (detail::op_state_arg). Returns CUDA_ERROR_INVALID_VALUE for more items
// than the offset type or CUB's int tile count can index or a too small temp storage,
// or the first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, const void* d_keys_in,
                                const void* d_values_in, void* d_keys_out, void* d_values_out,
                                void* d_num_selected_out, std::uint64_t num_items, CUstream stream,
                                const void* op_state) noexcept;

// The instantiation, or nullptr (an offset not uint32/uint64);
// `iterators`: the one whose inputs and outputs are all iterators, each argument then the
// address of an iterator's packed bytes (Spec::iterators). closed_form false: the same
// dispatch answering size queries through CUB's whole host dispatch, the reference the
// closed form is tested equal to (test_unique_by_key_dispatch).
DispatchFn select_dispatch(ScalarType offset_type, bool closed_form = true,
                           bool iterators = false) noexcept;

}  // namespace cccl_cache::algos::unique_by_key::detail
