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
};

// The facts of ordinal `device`: the driver is asked on the first successful call for
// that ordinal only (thread-safe; later calls read them without a lock). Errors as
// device_cc()'s, never kept.
Result<DeviceFacts> device_facts(int device);

}  // namespace cccl_cache::algos::detail
