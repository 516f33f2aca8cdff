// A select bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::select {

// Holds the loaded module, the functions and every device fact its calls need, all
// fixed at bind time: a call makes no device, context, attribute or store query and
// allocates nothing. The bound device's primary context must be current on the calling
// thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<Select> {
 public:
  // Temp-storage bytes for `num_items`: CUB's own answer, in closed form from values
  // fixed at bind (pure arithmetic). 0 for a count above INT64_MAX.
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise copies the items of d_in for which the spec's
  // predicate holds to d_out, in order, and writes how many to *d_num_selected_out (one
  // element of the spec's selected type, device memory), all on `stream`, which must
  // belong to the bound device's primary context. d_out must not overlap d_in. For a spec
  // with an input or output iterator, d_in or d_out is the call's values for it
  // (iterator.hpp Input, Output; packed on the stack). Returns CUDA_ERROR_INVALID_VALUE
  // for a count above INT64_MAX, a too small temp storage or a value not of the spec's
  // kind, and CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it.
  // `op_state`: a stateful predicate's state (types.hpp OpState: its bytes, read before
  // return; a size query may leave it out), empty for a stateless one;
  // CUDA_ERROR_INVALID_VALUE where it does not fit the predicate's state layout.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                      Output d_out, void* d_num_selected_out, std::uint64_t num_items,
                      CUstream stream, OpState op_state = {}) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::Select;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::select
