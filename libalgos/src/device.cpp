// Device queries for callers outside libalgos (the CLI, embedders) and for bind().
#include "cccl_cache/algos/device.hpp"

#include <string>

#include "cuda_driver.hpp"

namespace cccl_cache::algos {

using detail::driver;
using detail::driver_error;

Result<void> driver_status() {
  const auto& api = driver();
  if (!api) return tl::unexpected(api.error());
  // Repeated calls return the first call's result at once.
  if (CUresult rc = (*api)->cuInit(0); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuInit", rc));
  return {};
}

Result<int> device_count() {
  if (!driver_status()) return 0;
  int count = 0;
  if (CUresult rc = (*driver())->cuDeviceGetCount(&count); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGetCount", rc));
  return count;
}

Result<std::uint32_t> device_cc(int device) {
  if (auto status = driver_status(); !status) return tl::unexpected(status.error());
  const detail::DriverApi& cu = **driver();
  int count = 0;
  if (CUresult rc = cu.cuDeviceGetCount(&count); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGetCount", rc));
  if (device < 0 || device >= count)
    return fail(ErrorCode::driver, "no CUDA device " + std::to_string(device) + " (" +
                                       std::to_string(count) + " present)");
  CUdevice dev = 0;
  if (CUresult rc = cu.cuDeviceGet(&dev, device); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGet", rc));
  int major = 0, minor = 0;
  if (CUresult rc =
          cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
      rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGetAttribute", rc));
  if (CUresult rc =
          cu.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
      rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGetAttribute", rc));
  return static_cast<std::uint32_t>(major * 10 + minor);
}

}  // namespace cccl_cache::algos
