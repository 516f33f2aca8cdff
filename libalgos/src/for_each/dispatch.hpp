// for_each's host dispatch over the bound kernel (dispatch.cu). Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "cccl_cache/algos/for_each/build_result.hpp"
#include "cccl_cache/algos/types.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::for_each::detail {

// The largest operator argument (DeviceFor's wrapper): the largest packed iterator, then
// the largest operator state at its alignment.
inline constexpr std::size_t kMaxWrapperBytes = 128 + kMaxOpStateSize;

// Everything the dispatch needs, fixed at bind time.
struct DispatchParams {
  const algos::detail::LaunchContext* launch = nullptr;  // the kernel, the driver's launch
  Policy policy;                                          // the build's
  std::uint32_t items_size = 0;  // the items' argument (T* or packed iterator) at offset 0
  std::uint32_t op_offset = 0;   // the operator (its state, or one byte) at this offset
  std::uint32_t op_size = 0;
};

// CCCL 3.5's cub::detail::for_each::dispatch (invoke_static_block_size), which takes no
// kernel source: one launch of ceil(num_items / (threads * items)) blocks of the policy's
// threads, no dynamic shared memory, no programmatic dependent launch, nothing for 0
// items, with (num_items as the spec's offset type, the wrapper {items, op}) as its
// arguments; `items` is the address of the items' argument (the array pointer or the
// packed iterator), `op_state` that of the operator's bytes (detail::op_state_arg).
// Returns CUDA_ERROR_INVALID_VALUE for more items than the offset type holds or a grid
// over the device's x limit, CUDA_ERROR_NOT_INITIALIZED without a launch entry point,
// else the launch's result.
using DispatchFn = CUresult (*)(const DispatchParams& params, const void* items,
                                std::uint64_t num_items, CUstream stream,
                                const void* op_state) noexcept;

// The dispatch for an offset type; nullptr for another type.
DispatchFn dispatch_for(ScalarType offset_type) noexcept;

}  // namespace cccl_cache::algos::for_each::detail
