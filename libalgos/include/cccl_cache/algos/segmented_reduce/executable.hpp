// A segmented reduce bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::segmented_reduce {

// Holds the loaded module, the function and every device fact its calls need, all
// fixed at bind time: a call makes no device, context, attribute or store query and
// allocates nothing. The bound device's primary context must be current on the
// calling thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<SegmentedReduce> {
 public:
  // Temp-storage bytes for `num_segments`: 1 (CUB's answer for any positive count: the
  // kernel needs none; for zero segments CUB leaves the size unwritten), 0 for a count
  // above INT64_MAX (CUB's num_segments is an int64).
  std::size_t temp_storage_bytes(std::uint64_t num_segments) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise, for each i < num_segments, writes
  // op(init, d_in[d_begin[i]..d_end[i])) (init alone for an empty segment) to d_out[i]
  // on `stream`, which must belong to the bound device's primary context. d_begin and
  // d_end are device arrays of the spec's offset type; `h_init` points to one element
  // of the spec's type in host memory (read before return). max_segment_size: 0, or a
  // bound on every segment's length that lets CUB reduce small segments per thread and
  // medium ones per warp (as cuda.compute's segmented_reduce; a segment longer than the
  // bound gives an undefined result for it). Returns CUDA_ERROR_INVALID_VALUE for a
  // null h_init or num_segments above INT64_MAX, and CUDA_ERROR_NOT_INITIALIZED in a
  // fork()ed child of the process that bound it.
  // `op_state`: a stateful operator's state (types.hpp OpState: its bytes, read before
  // return; a size query may leave it out), empty for a stateless one;
  // CUDA_ERROR_INVALID_VALUE where it does not fit the operator's state layout.
  //
  // A spec with iterators (spec.hpp) takes each argument as an IteratorValue of its kind
  // (an array argument as IteratorValue::array or a pointer); CUDA_ERROR_INVALID_VALUE
  // for a value of another kind. A reverse input iterator is not taken (its end depends on
  // a length the call does not have).
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                      Output d_out, std::uint64_t num_segments, Input d_begin_offsets,
                      Input d_end_offsets, const void* h_init, CUstream stream,
                      std::uint64_t max_segment_size = 0, OpState op_state = {}) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::SegmentedReduce;
};

// bind (core/executable.hpp) also fixes the kernel's occupancy, which CUB's dispatch asks.
using algos::bind;

}  // namespace cccl_cache::algos::segmented_reduce
