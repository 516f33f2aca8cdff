// CUB's radix-sort host dispatch driven by bound CUfunctions (dispatch.cu, built by nvcc).
// Private to libalgos.
#pragma once

#include <cuda.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/radix_sort/executable.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::radix_sort::detail {

// CUB's onesweep dispatch launches both init kernels with this many threads per block.
inline constexpr std::uint32_t kInitThreads = 256;

// The block size the dispatch launches each kernel slot with (build_result.hpp Kernel).
inline std::array<std::uint32_t, kSlots> launch_threads(const Policy& p) noexcept {
  if (p.onesweep)
    return {p.single_tile_threads, p.histogram_threads, p.exclusive_sum_threads, kInitThreads,
            kInitThreads, p.onesweep_threads};
  return {p.single_tile_threads, p.upsweep_threads,   p.alt_upsweep_threads,
          p.scan_threads,        p.downsweep_threads, p.alt_downsweep_threads};
}

// Everything CUB's dispatch asks of its policy selector, kernel source and launcher
// factory, fixed at bind time.
struct DispatchParams {
  const algos::detail::LaunchContext* launch = nullptr;  // kernels in slot order
  Policy policy;
};

// One instantiation of CCCL 3.5's cub::detail::radix_sort::dispatch for a (key size, value
// size, offset type). `overwrite`: CUB's is_overwrite_okay (the DoubleBuffers form); the
// plain form passes buffers {in, out}, selector 0, and false. d_temp_storage == nullptr
// sets temp_storage_bytes: CUB's answer, in closed form from the bound policy, SM count
// and pass kernels' occupancies (no dispatch, no driver call) wherever 0 <= begin_bit <
// end_bit, through CUB's dispatch otherwise (its UVA question for an empty plain-form
// range; the executables refuse such ranges before). Bits must be checked by the caller.
// Returns CUDA_ERROR_INVALID_VALUE for num_items over the offset type or too little temp
// storage, else the first launch error.
using DispatchFn = CUresult (*)(const DispatchParams& params, void* d_temp_storage,
                                std::size_t& temp_storage_bytes, DoubleBuffers& buffers,
                                std::uint64_t num_items, int begin_bit, int end_bit,
                                bool overwrite, CUstream stream) noexcept;

// nullptr for sizes other than 1/2/4/8 (values also 0) or an offset not uint32/uint64.
// closed_form false: the same dispatch answering every size query through CUB's whole
// host dispatch, the reference the closed form is tested equal to
// (test_radix_sort_temp_storage).
DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                           bool closed_form = true) noexcept;
// Whether CUB's policy selector picks onesweep for `spec` on sm_<cc>: evaluated on the
// host to name the kernels a build compiles; the build's probe then reads the device
// compile's own choice and check() requires the two to agree.
bool selects_onesweep(const Spec& spec, std::uint32_t cc) noexcept;

// The policy CUB's selector picks for `spec` on sm_<cc>, evaluated on the host (the
// fields the host dispatch reads; a build probes the device compile's own).
Policy selected_policy(const Spec& spec, std::uint32_t cc) noexcept;

}  // namespace cccl_cache::algos::radix_sort::detail
