// A three-way partition bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::three_way_partition {

// Holds the loaded module, the functions and every device fact its calls need, all
// fixed at bind time: a call makes no device, context, attribute or store query and
// allocates nothing. The bound device's primary context must be current on the calling
// thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<ThreeWayPartition> {
 public:
  // Temp-storage bytes for `num_items`: CUB's own answer, in closed form from values
  // fixed at bind (pure arithmetic). 0 for a count the spec's offset type cannot hold.
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise copies, in order, the items of d_in the first
  // predicate selects to d_first_part_out, of the others those the second selects to
  // d_second_part_out and the rest to d_unselected_out, and writes the first two parts'
  // sizes to d_num_selected_out[0] and [1] (two elements of the spec's selected type,
  // device memory), all on `stream`, which must belong to the bound device's primary
  // context. No output may overlap d_in or another output. For a spec with iterators,
  // each of d_in and the outputs that is one is the call's values for it (iterator.hpp
  // Input, Output; packed on the stack). Returns CUDA_ERROR_INVALID_VALUE for a count the
  // offset type cannot hold, a too small temp storage or a value not of the spec's kind,
  // and CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it.
  // `first_op_state`, `second_op_state`: each predicate's state where it is stateful
  // (types.hpp OpState: its bytes, read before return; a size query may leave them
  // out), empty for a stateless one; CUDA_ERROR_INVALID_VALUE where one does not fit
  // its predicate's state layout.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                      Output d_first_part_out, Output d_second_part_out, Output d_unselected_out,
                      void* d_num_selected_out, std::uint64_t num_items, CUstream stream,
                      OpState first_op_state = {}, OpState second_op_state = {}) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::ThreeWayPartition;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::three_way_partition
