// The CUDA driver, loaded at run time. libalgos does not link libcuda.so.1: a
// program using it starts on a machine without an NVIDIA driver (CI, a build or
// login node), where builds and the store work and only GPU operations fail, with
// a clear error. Private to libalgos.
#pragma once

#include <cuda.h>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// Every driver entry point libalgos calls. The names are the API's: cuda.h maps
// some of them to versioned symbols (cuCtxPushCurrent -> cuCtxPushCurrent_v2), and
// the member's name and type follow the same mapping, so `api.cuCtxPushCurrent(ctx)`
// calls the version this header declares. Add an entry here to use a new call.
#define CCCL_CACHE_DRIVER_ENTRY_POINTS(X) \
  X(cuGetErrorName)                       \
  X(cuGetErrorString)                     \
  X(cuDriverGetVersion)                   \
  X(cuInit)                               \
  X(cuDeviceGetCount)                     \
  X(cuDeviceGet)                          \
  X(cuDeviceGetAttribute)                 \
  X(cuDevicePrimaryCtxRetain)             \
  X(cuDevicePrimaryCtxRelease)            \
  X(cuCtxPushCurrent)                     \
  X(cuCtxPopCurrent)                      \
  X(cuModuleLoadData)                     \
  X(cuModuleUnload)                       \
  X(cuModuleGetFunction)                  \
  X(cuFuncLoad)                           \
  X(cuFuncGetAttribute)                   \
  X(cuFuncSetAttribute)                   \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
  X(cuMemsetD8Async)                      \
  X(cuMemcpyDtoHAsync)                    \
  X(cuStreamSynchronize)                  \
  X(cuPointerGetAttributes)               \
  X(cuLaunchKernelEx)

struct DriverApi {
#define CCCL_CACHE_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  CCCL_CACHE_DRIVER_ENTRY_POINTS(CCCL_CACHE_DRIVER_MEMBER)
#undef CCCL_CACHE_DRIVER_MEMBER
};

// The driver's entry points, every one resolved through cuGetProcAddress for the
// CUDA version of these headers. The first call dlopens libcuda.so.1 (thread-safe;
// later calls only read the result). Error driver, the same on every call, when
// there is no usable driver: "no NVIDIA driver found (<why>); GPU operations are
// unavailable, builds and the store still work", <why> being the loader's message,
// the toolkit's stub found in its place, or an entry point the driver lacks (older
// than the toolkit). The table lives as long as the process (never unloaded).
const Result<const DriverApi*>& driver() noexcept;

// The table, where an earlier driver() call succeeded: the handle wrappers and the
// executable exist only then. Precondition violated = null dereference.
inline const DriverApi& loaded_driver() noexcept { return **driver(); }

// What a CUresult-returning call answers when there is no usable driver:
// CUDA_ERROR_NO_DEVICE without libcuda.so.1, CUDA_ERROR_STUB_LIBRARY for the stub,
// CUDA_ERROR_NOT_FOUND for a driver lacking an entry point; CUDA_SUCCESS when loaded.
CUresult driver_load_status() noexcept;

// "cuModuleLoadData: CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)".
// Names the code through the driver where it is loaded.
Error driver_error(const char* what, CUresult rc);

}  // namespace cccl_cache::algos::detail
