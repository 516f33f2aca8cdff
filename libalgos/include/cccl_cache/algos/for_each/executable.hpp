// A for_each bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/for_each/build_result.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::for_each {

// Holds the loaded module, the kernel and every fact its calls need, all fixed at bind
// time: a call makes no device, context, attribute or store query and allocates nothing.
// The bound device's primary context must be current on the calling thread. DeviceFor
// needs no temporary storage, so a call takes none. Move-only (core/executable.hpp).
class Executable : public BoundExecutable<ForEach> {
 public:
  // op(item) for every item i < num_items (cub::DeviceFor::ForEachN), in no particular
  // order, on `stream` (of the bound device's primary context). `d_in`: the items, a T
  // array (the operator may change its items in place) or, for a spec with an input
  // iterator, the call's values for it (iterator.hpp Input), packed on the stack.
  // `op_state`: a stateful operator's state (types.hpp OpState: its bytes, read before
  // return), empty for a stateless one. Returns CUDA_ERROR_INVALID_VALUE where num_items
  // exceeds the offset type, a value is not of the spec's kind or the state does not fit
  // the operator's layout, CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process
  // that bound it, or the launch's error.
  CUresult operator()(Input d_in, std::uint64_t num_items, CUstream stream,
                      OpState op_state = {}) const noexcept;

  const Policy& policy() const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::ForEach;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::for_each
