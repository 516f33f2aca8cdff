// A scan bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::scan {

// An initial value in device memory (CUB's FutureValue): `d_init` points to one element
// of the spec's type, which the kernels read when they run, so it may be the output of
// work queued earlier on the stream.
struct FutureValue {
  const void* d_init = nullptr;
};

// Holds the loaded module, the per-device functions and every device fact its calls
// need, all fixed at bind time: a call makes no device, context, attribute or store
// query and allocates nothing. The bound device's primary context must be current on
// the calling thread. Move-only (core/executable.hpp).
template <AlgorithmId Id>
class Executable : public BoundExecutable<Scan<Id>> {
 public:
  // Temp-storage bytes needed to scan `num_items` items: CUB's own dispatch answers,
  // through values fixed at bind (pure arithmetic). 0 for a count the offset type
  // cannot index.
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept;

  // CUB's two-phase convention. d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise scans d_in into d_out (they may be equal: in place)
  // on `stream`, which must belong to the bound device's primary context. Exclusive
  // scan and seeded inclusive scan (Spec::init): `h_init` points to the initial value's
  // bytes on the host (the element type), read before the call returns; an unseeded
  // inclusive scan takes the call without it. Returns CUDA_ERROR_INVALID_VALUE for a too
  // small temp storage, too many items for the offset type, a null h_init or the call
  // form the spec does not take (with or without h_init), and
  // CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it. The
  // FutureValue form takes the initial value from device memory instead (the same
  // executable: a null d_init is CUDA_ERROR_INVALID_VALUE except in a size query).
  // `op_state`: a stateful operator's state (types.hpp OpState: its bytes, read before
  // return; a size query may leave it out), empty for a stateless one;
  // CUDA_ERROR_INVALID_VALUE where it does not fit the operator's state layout.
  // `d_in`: the T array, or for a spec with an input iterator the call's values for it
  // (iterator.hpp Input), packed on the stack: no allocation, no driver query;
  // CUDA_ERROR_INVALID_VALUE where the input is not of the spec's input kind.
  // `d_out`: the T array, or for a spec with an output iterator the call's values for it
  // (iterator.hpp Output), likewise packed and checked against the spec's output kind.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                      Output d_out, std::uint64_t num_items, CUstream stream,
                      OpState op_state = {}) const noexcept
      requires(Id == AlgorithmId::inclusive_scan) {
    return run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, nullptr, Init::none,
               stream, op_state);
  }
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                      Output d_out, std::uint64_t num_items, const void* h_init, CUstream stream,
                      OpState op_state = {}) const noexcept {
    return run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, h_init, Init::host,
               stream, op_state);
  }
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                      Output d_out, std::uint64_t num_items, FutureValue init, CUstream stream,
                      OpState op_state = {}) const noexcept {
    return run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, init.d_init,
               Init::device, stream, op_state);
  }

 private:
  using BoundExecutable<Scan<Id>>::BoundExecutable;
  // How a call gives the initial value: none (an unseeded inclusive scan), or `init` as
  // host bytes or a device pointer (FutureValue); the spec must take the form (an initial
  // value: exclusive or seeded), and a run needs a non-null `init`.
  enum class Init : unsigned char { none, host, device };
  CUresult run(void* d_temp_storage, std::size_t& temp_storage_bytes, const Input& d_in, const Output& d_out,
               std::uint64_t num_items, const void* init, Init form, CUstream stream,
               OpState op_state) const noexcept;
  friend struct Scan<Id>;
};

using algos::bind;  // core/executable.hpp

using InclusiveExecutable = Executable<AlgorithmId::inclusive_scan>;
using ExclusiveExecutable = Executable<AlgorithmId::exclusive_scan>;

}  // namespace cccl_cache::algos::scan
