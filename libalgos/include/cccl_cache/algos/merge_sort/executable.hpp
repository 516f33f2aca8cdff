// A merge sort bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda.h>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::merge_sort {

// Holds the loaded module, the per-device functions and every device fact its calls
// need, all fixed at bind time: a call makes no device, context, attribute or store
// query and allocates nothing. The bound device's primary context must be current on
// the calling thread (as after cudaSetDevice). Move-only (core/executable.hpp).
class Executable : public BoundExecutable<MergeSort> {
 public:
  // Temp-storage bytes needed to sort `num_items` (the same number CUB's dispatch
  // returns), computed from values fixed at bind time.
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes
  // and returns CUDA_SUCCESS. Otherwise sorts keys (and values, unless keys-only)
  // from the input arrays into the output arrays (they may alias: in-place) on
  // `stream`, which must belong to the bound device's primary context. For a spec with
  // input iterators, each input that is one is the call's values for it (iterator.hpp
  // Input; packed on the stack); a keys-only sort reads no values.
  // Returns CUDA_ERROR_INVALID_VALUE if temp_storage_bytes is too small or an input's
  // value is not of the spec's kind, and
  // CUDA_ERROR_NOT_INITIALIZED for a launch in a fork()ed child of the process that
  // bound it (destroying it there leaves the parent's handles alone).
  // `op_state`: a stateful comparator's state (types.hpp OpState: its bytes, read before
  // return; a size query may leave it out), empty for a stateless one;
  // CUDA_ERROR_INVALID_VALUE where it does not fit the comparator's state layout.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                      Input d_keys_in, Input d_values_in,
                      void* d_keys_out, void* d_values_out,
                      std::uint64_t num_items, CUstream stream,
                      OpState op_state = {}) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::MergeSort;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::merge_sort
