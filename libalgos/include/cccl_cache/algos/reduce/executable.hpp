// A reduce bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda.h>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::reduce {

// Holds the loaded module, the per-device functions and every device fact its calls
// need, all fixed at bind time: a call makes no device, context, attribute or store
// query and allocates nothing. The bound device's primary context must be current on
// the calling thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<Reduce> {
 public:
  // Temp-storage bytes needed to reduce `num_items` (the number CUB's dispatch
  // returns: 1 for a problem of one tile, else the per-block partials), computed from
  // values fixed at bind time; 0 for a count the offset type cannot hold.
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes
  // and returns CUDA_SUCCESS. Otherwise writes op(init, d_in[0..num_items)) (init
  // alone for zero items) to d_out[0] on `stream`, which must belong to the bound
  // device's primary context. `h_init` points to one element of the spec's type in
  // host memory (read before return). Returns CUDA_ERROR_INVALID_VALUE if
  // temp_storage_bytes is too small, num_items exceeds the offset type or h_init is
  // null, and CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it.
  // `op_state`: a stateful operator's state (types.hpp OpState: its bytes, read before
  // return; a size query may leave it out), empty for a stateless one;
  // CUDA_ERROR_INVALID_VALUE where it does not fit the operator's state layout.
  // `d_in`: the T array, or for a spec with an input iterator the call's values for it
  // (iterator.hpp Input; a reverse iterator reads num_items elements from its pointer
  // backwards), packed on the stack: no allocation, no driver query.
  // CUDA_ERROR_INVALID_VALUE where the input is not of the spec's input kind.
  // `d_out`: the T result's address, or for a spec with an output iterator the call's
  // values for it (iterator.hpp Output; its element 0 is written), likewise packed and
  // checked against the spec's output kind.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                      Output d_out, std::uint64_t num_items, const void* h_init,
                      CUstream stream, OpState op_state = {}) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::Reduce;
};

// bind (core/executable.hpp) also fixes the SM count and the first pass's occupancy,
// hence its grid and temp-storage size.
using algos::bind;

}  // namespace cccl_cache::algos::reduce
