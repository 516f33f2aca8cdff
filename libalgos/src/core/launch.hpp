// What CUB's host dispatch asks of a launcher factory (device facts, occupancy,
// launches), fixed at bind time for one bound module: the factory of core/launch.cuh
// answers from here with no driver query. Host C++ (no CUDA runtime headers), so that
// bind (g++) fills it and the dispatches (nvcc) read it. Private to libalgos.
#pragma once

#include <cuda.h>

#include <array>
#include <cstddef>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/algos/types.hpp"

namespace cccl_cache::algos::detail {

// One kernel of the module as the dispatch launches it.
struct KernelLaunch {
  CUfunction function = nullptr;
  int block_threads = 0;     // the block size the dispatch launches it with
  int occupancy = 0;         // resident blocks per SM at block_threads, no dynamic smem
  int max_dynamic_smem = 0;  // opt-in dynamic shared memory left beside its static smem
};

struct LaunchContext {
  // The driver's entry points, resolved at bind: launches call them directly. Null:
  // every launch fails with CUDA_ERROR_NOT_INITIALIZED (temp-storage queries need none).
  decltype(&::cuLaunchKernelEx) launch = nullptr;
  decltype(&::cuMemsetD8Async) memset = nullptr;
  // A dispatch that reads a device result on the host (segmented sort's group sizes):
  // the device-to-host copy and the wait for it.
  decltype(&::cuMemcpyDtoHAsync) memcpy = nullptr;
  decltype(&::cuStreamSynchronize) synchronize = nullptr;
  decltype(&::cuFuncSetAttribute) set_attribute = nullptr;  // dynamic smem opt-in
  int device = -1;                // the bound device's ordinal
  int ptx_version = 0;            // cc * 10: CUB's policy thresholds are written 500 .. 1000
  bool dependent_launch = false;  // programmatic dependent launch (CC >= 9.0), as CUB does
  int sm_count = 0;
  int max_grid_dim_x = 0;
  int max_shared_memory = 0;  // per block without opting in
  std::array<KernelLaunch, kMaxKernels> kernels{};  // the record's kernel order
  std::size_t num_kernels = 0;
  // Set only in a bind's dry run (core/executable_state.hpp dry_run): the driver's
  // occupancy, asked where the bound occupancies have no answer (another block size,
  // dynamic shared memory); a failure's code is kept in *occupancy_error. Null in every
  // bound context: a call never asks the driver.
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy = nullptr;
  CUresult* occupancy_error = nullptr;

  // The kernel bound to `fn`, or nullptr.
  const KernelLaunch* find(CUfunction fn) const noexcept {
    for (std::size_t i = 0; i < num_kernels; ++i)
      if (kernels[i].function == fn) return &kernels[i];
    return nullptr;
  }
};

// The byte a stateless operator's kernel parameter (an empty struct) is copied from.
inline constexpr unsigned char kNoOpState[1] = {0};

// The address a call's operator argument is copied from (OpArg, core/launch.cuh): for a
// stateful `op`, s.data where `s` fits its layout (s.size == op.state_size, data not
// null); for a stateless one given no state, kNoOpState. nullptr where `s` does not fit
// (the call fails with CUDA_ERROR_INVALID_VALUE), except that a size query (`launches`
// false), which launches nothing, may leave a stateful operator's state out.
inline const void* op_state_arg(const Operator& op, OpState s, bool launches) noexcept {
  if (s.data == nullptr && s.size == 0) return op.stateful() && launches ? nullptr : kNoOpState;
  if (!op.stateful() || s.data == nullptr || s.size != op.state_size) return nullptr;
  return s.data;
}

}  // namespace cccl_cache::algos::detail
