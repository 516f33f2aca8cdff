// The local GPUs, through the CUDA driver that libalgos loads at run time: a
// program linked with libalgos starts without an NVIDIA driver (CI, a build or
// login node), where builds, prewarming and the store work and these functions
// report no device. All functions are thread-safe. The first call of any of them
// (or of bind()) loads libcuda.so.1; later calls reuse it.
#pragma once

#include <cstdint>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {

// Why no GPU can be used, or a value where the driver is loaded and initialized
// (cuInit succeeded). Error driver:
//   "no NVIDIA driver found (libcuda.so.1 could not be loaded: <dlerror>); GPU
//    operations are unavailable, builds and the store still work"
// (or the same for the CUDA toolkit's stub library in its place, or a driver older
// than the toolkit), or "cuInit: CUDA_ERROR_NO_DEVICE (...)" and the like when the
// driver initializes no device (e.g. CUDA_VISIBLE_DEVICES="").
Result<void> driver_status();

// The number of devices the driver sees. 0, not an error, when driver_status()
// fails (no driver, no device, cuInit failing): driver_status() says why.
// Error driver only when the driver initialized but cuDeviceGetCount failed.
Result<int> device_count();

// Compute capability of device ordinal `device` as major * 10 + minor (90 for
// sm_90). Error driver with driver_status()'s message when there is no usable
// driver, "no CUDA device <device> (<n> present)" for an ordinal out of range,
// or the failing driver query.
Result<std::uint32_t> device_cc(int device);

// The device ordinal whose memory `ptr` points into (device or managed memory the
// driver knows; for managed memory, the device it was allocated from). Error
// invalid_argument "not device memory" for host memory the driver does not know
// (a NumPy array's data, a stack address), driver as driver_status() otherwise. One
// cuPointerGetAttributes call: for argument checks of language bindings, not for
// launches.
Result<int> pointer_device(const void* ptr);

}  // namespace cccl_cache::algos
