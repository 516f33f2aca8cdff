// A binary search bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::binary_search {

// Holds the loaded module, the function and every fact its calls need, all fixed at
// bind time (CUB's launch configuration included): a call makes no device, context,
// attribute or store query and allocates nothing. The bound device's primary context
// must be current on the calling thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<BinarySearch> {
 public:
  // Temp-storage bytes: CUB's answer, 1 for every count (DeviceFind asks for a byte it
  // never uses).
  std::size_t temp_storage_bytes() const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise writes, for each i < num_values, the lower (upper)
  // bound of d_values[i] in the range d_data[0, num_items), sorted by the spec's
  // comparator, to d_out[i] as the spec's out type, on `stream` (of the bound device's
  // primary context). d_out must not overlap d_data or d_values. Returns
  // CUDA_ERROR_INVALID_VALUE for a count over INT64_MAX, num_items over what the out
  // type holds, a null pointer with a nonzero count, a too small temp storage or a value
  // not of the spec's kind, and CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the
  // process that bound it. For a spec with a values or output iterator, d_values or d_out
  // is the call's values for it (iterator.hpp Input, Output; packed on the stack), and
  // for a spec with a range iterator (data_in), d_data.
  // `op_state`: a stateful comparator's state (types.hpp OpState: its bytes, read before
  // return; a size query may leave it out), empty for a stateless one;
  // CUDA_ERROR_INVALID_VALUE where it does not fit the comparator's state layout.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_data,
                      std::uint64_t num_items, Input d_values, std::uint64_t num_values,
                      Output d_out, CUstream stream, OpState op_state = {}) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::BinarySearch;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::binary_search
