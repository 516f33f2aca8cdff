// A scan by key bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::scan_by_key {

// Holds the loaded module, the functions and every device fact its calls need, all
// fixed at bind time: a call makes no device, context, attribute or store query and
// allocates nothing. The bound device's primary context must be current on the calling
// thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<ScanByKey> {
 public:
  // Temp-storage bytes needed to scan `num_items` items: CUB's own dispatch answers,
  // through values fixed at bind (pure arithmetic). 0 for a count the offset type or
  // CUB's int tile count cannot index.
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise scans d_values_in into d_values_out, restarting at
  // each run of consecutive keys of d_keys_in equal under the spec's equality, on
  // `stream` (of the bound device's primary context). d_values_out may equal
  // d_values_in or d_keys_in (same size) but not overlap them otherwise. Exclusive
  // spec: `h_init` points to the initial value's bytes on the host (the value type),
  // read before the call returns, and seeds every run; an inclusive spec ignores it.
  // For a spec with iterators, each argument that is one is the call's values for it
  // (iterator.hpp Input, Output; packed on the stack).
  // Returns CUDA_ERROR_INVALID_VALUE for a too small temp storage, too many items, an
  // exclusive call with a null h_init or an argument's value not of the spec's kind, and
  // CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                      Input d_keys_in, Input d_values_in, Output d_values_out,
                      std::uint64_t num_items, const void* h_init,
                      CUstream stream) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::ScanByKey;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::scan_by_key
