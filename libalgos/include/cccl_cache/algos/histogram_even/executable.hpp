// A histogram_even bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::histogram_even {

// Holds the loaded module, the functions and every device fact its calls need, all
// fixed at bind time: a call makes no device, context, attribute or store query and
// allocates nothing. The bound device's primary context must be current on the calling
// thread. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<HistogramEven> {
 public:
  // Temp-storage bytes to bin `num_samples` samples into num_levels - 1 bins: CUB's own
  // answer, in closed form from values fixed at bind (pure arithmetic). 0 for
  // num_levels < 2 or a count the spec's offset type cannot hold.
  std::size_t temp_storage_bytes(std::uint64_t num_samples, int num_levels) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise writes to d_histogram[0 .. num_levels - 1) (the
  // spec's counter type, device memory) how many of d_samples[0 .. num_samples) fall in
  // each of num_levels - 1 equal-width bins over [lower, upper), ignoring samples outside
  // it, on `stream`, which must belong to the bound device's primary context. `h_lower`
  // and `h_upper` point to one value each of the spec's level type in host memory (read
  // before return). Returns CUDA_ERROR_INVALID_VALUE for num_levels < 2, null bounds, a
  // lower bound not below the upper one, bounds whose bin arithmetic overflows CUB's
  // integers ((upper - lower) * bins), a count the offset type cannot hold or a too small
  // temp storage or samples not of the spec's kind, and CUDA_ERROR_NOT_INITIALIZED in a
  // fork()ed child of the process that bound it. For a spec with a samples iterator,
  // d_samples is the call's values for it (iterator.hpp Input; packed on the stack). A
  // size query reads no sample (d_samples may be null).
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_samples,
                      void* d_histogram, int num_levels, const void* h_lower, const void* h_upper,
                      std::uint64_t num_samples, CUstream stream) const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::HistogramEven;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::histogram_even
