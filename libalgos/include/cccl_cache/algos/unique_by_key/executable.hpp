// A unique_by_key bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda.h>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::unique_by_key {

// Holds the loaded module, the functions and every device fact its calls need, all
// fixed at bind time: a call makes no device, context, attribute or store query and
// allocates nothing. The bound device's primary context must be current on the calling
// thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<UniqueByKey> {
 public:
  // Temp-storage bytes for `num_items`: CUB's own answer, in closed form from values
  // fixed at bind (pure arithmetic). 0 for a count the spec's offset type cannot index
  // (or whose tiles CUB cannot count in an int).
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise, of each run of consecutive keys of d_keys_in that
  // the spec's operator calls equal, copies the first key to d_keys_out and its value
  // (from d_values_in) to d_values_out, in order, and writes the number of runs to
  // *d_num_selected_out (one element of the spec's selected type, device memory), all
  // on `stream`, which must belong to the bound device's primary context. Outputs must
  // not overlap the inputs. For a spec with iterators, each of the inputs and outputs
  // that is one is the call's values for it (iterator.hpp Input, Output; packed on the
  // stack). Returns CUDA_ERROR_INVALID_VALUE for a count the offset type cannot index, a
  // too small temp storage or a value not of the spec's kind, and
  // CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it.
  // `op_state`: a stateful operator's state (types.hpp OpState: its bytes, read before
  // return; a size query may leave it out), empty for a stateless one;
  // CUDA_ERROR_INVALID_VALUE where it does not fit the operator's state layout.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_keys_in,
                      Input d_values_in, Output d_keys_out, Output d_values_out,
                      void* d_num_selected_out, std::uint64_t num_items, CUstream stream,
                      OpState op_state = {}) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::UniqueByKey;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::unique_by_key
