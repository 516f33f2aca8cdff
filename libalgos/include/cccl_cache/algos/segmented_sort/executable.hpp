// A segmented sort bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda.h>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::segmented_sort {

// Holds the loaded module, the per-device functions and every device fact its calls
// need, all fixed at bind time: a call makes no device, context, attribute or store
// query and allocates nothing. The bound device's primary context must be current on the
// calling thread. Move-only (core/executable.hpp).
//
// Each segment is sorted by its keys after CUB's radix transformations (signed: sign bit
// flipped; floats: -0.0 and +0.0 equal, NaNs by their bits), stably: pairs with equal keys
// keep their input order.
class Executable : public BoundExecutable<SegmentedSort> {
 public:
  // The temp-storage bytes a sort of `num_items` in `num_segments` segments needs (CUB's
  // own dispatch's answer in closed form, from values fixed at bind: no driver call); 0
  // for a count above INT64_MAX.
  std::size_t temp_storage_bytes(std::uint64_t num_items, std::uint64_t num_segments) const noexcept;

  // CUB's two-phase convention (DeviceSegmentedSort::SortKeys / SortPairs and their
  // Descending forms: the order is the spec's). d_temp_storage == nullptr: sets
  // temp_storage_bytes and returns CUDA_SUCCESS. Otherwise sorts each segment
  // [d_begin_offsets[i], d_end_offsets[i]) of d_keys_in (and d_values_in) into the same
  // positions of d_keys_out (and d_values_out; the value pointers are ignored for
  // keys-only) on `stream`, which must belong to the bound device's primary context. The
  // offset arrays hold num_segments values of the spec's offset type; a segment with
  // end <= begin is empty; items outside every segment are left unwritten. The inputs are
  // left unchanged. Above the policy's partitioning threshold (policy()) CUB groups the
  // segments by size first and reads the group sizes on the host: the call then returns
  // after `stream` has reached that point (as CUB's own).
  // A spec with offset iterators (spec.hpp) takes each offset as an IteratorValue of its
  // kind (an array as IteratorValue::array or a pointer), packed for num_segments
  // elements (a reverse one ends there); size queries read neither.
  // Errors: CUDA_ERROR_INVALID_VALUE (a count above INT64_MAX, temp storage too small, an
  // offset value of another kind than the spec's), CUDA_ERROR_NOT_INITIALIZED (a fork()ed
  // child), or the first launch, copy or wait error.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, const void* d_keys_in,
                      void* d_keys_out, const void* d_values_in, void* d_values_out,
                      std::uint64_t num_items, std::uint64_t num_segments, Input d_begin_offsets,
                      Input d_end_offsets, CUstream stream) const noexcept;

  const Policy& policy() const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::SegmentedSort;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::segmented_sort
