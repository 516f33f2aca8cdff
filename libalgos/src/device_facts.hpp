// What bind() needs to know of a device, queried once per process. Private to libalgos.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

struct DeviceFacts {
  CUdevice device = 0;   // the driver's handle of the ordinal
  std::uint32_t cc = 0;  // major * 10 + minor
  int sm_count = 0;                 // multiprocessors
  int max_shared_memory_optin = 0;  // bytes per block a kernel may opt in to
  int max_shared_memory = 0;        // bytes per block without opting in
  int max_grid_dim_x = 0;
};

// The facts of ordinal `device`: the driver is asked on the first successful call for
// that ordinal only (thread-safe; later calls read them without a lock). Errors as
// device_cc()'s, never kept.
// After fork() in a child whose parent had initialized the driver, the call fails with
// driver_used_after_fork() and asks the driver nothing.
Result<DeviceFacts> device_facts(int device);

// Bumped in every child after fork() (pthread_atfork, installed by the first call of any
// function here or of fork_generation() itself). Lock-free; no system call.
std::uint64_t fork_generation() noexcept;

// Error driver when this process is a fork() child of a process that had initialized the
// CUDA driver (cuInit): CUDA's state is not inherited across fork() and using it in the
// child is undefined. driver_status() and device_facts() return it without calling the
// driver. Empty otherwise.
Result<void> driver_used_after_fork();

// Records that this process initializes the driver (driver_status() calls it before
// cuInit): a child forked afterwards gets driver_used_after_fork()'s error.
void note_driver_initialized();

}  // namespace cccl_cache::algos::detail
