// A transform bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::transform {

// Holds the loaded module, the function and every fact its calls need, all fixed at
// bind time (CUB's launch configuration included): a call makes no device, context,
// attribute or store query and allocates nothing. The bound device's primary context
// must be current on the calling thread. CUB's transform needs no temporary storage,
// so a call takes none. Move-only (core/executable.hpp).
template <int N>
class Executable : public BoundExecutable<Transform<N>> {
 public:
  // out[i] = op(in[i]) (unary) / op(in1[i], in2[i]) (binary) for i < num_items, on
  // `stream` (of the bound device's primary context). The output may be one of the
  // inputs (in place); it must not overlap an input otherwise. Each input and the output
  // is an array, or for a spec with an iterator there the call's values for it
  // (iterator.hpp Input, Output), packed on the stack. Returns CUDA_ERROR_INVALID_VALUE
  // if num_items exceeds INT64_MAX or a value is not of the spec's kind,
  // CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it, or the
  // launch's error. `op_state`: a stateful operator's state (types.hpp OpState: its
  // bytes, read before return), empty for a stateless one; CUDA_ERROR_INVALID_VALUE
  // where it does not fit the operator's state layout.
  CUresult operator()(Input d_in, Output d_out, std::uint64_t num_items, CUstream stream,
                      OpState op_state = {}) const noexcept requires(N == 1);
  CUresult operator()(Input d_in1, Input d_in2, Output d_out, std::uint64_t num_items,
                      CUstream stream, OpState op_state = {}) const noexcept requires(N == 2);

 private:
  using BoundExecutable<Transform<N>>::BoundExecutable;
  CUresult run(const Input* d_in, const Output& d_out, std::uint64_t num_items, CUstream stream,
               OpState op_state) const noexcept;
  friend struct Transform<N>;
};

// bind (core/executable.hpp) also fixes CUB's launch configuration (its items per
// thread and occupancy, which CUB itself computes once per process).
using algos::bind;

}  // namespace cccl_cache::algos::transform
