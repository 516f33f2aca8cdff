#include "gpu_probe.hpp"

#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <string>

namespace cccl_cache::cli {

namespace {
// dlopen'ed so that `prewarm --arch ...` works on build machines without a driver.
using InitFn = CUresult (*)(unsigned);
using CountFn = CUresult (*)(int*);
using GetFn = CUresult (*)(CUdevice*, int);
using AttrFn = CUresult (*)(int*, CUdevice_attribute, CUdevice);
}  // namespace

Result<std::vector<std::uint32_t>> local_device_ccs() {
  std::vector<std::uint32_t> ccs;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return ccs;
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
  auto count = reinterpret_cast<CountFn>(dlsym(lib, "cuDeviceGetCount"));
  auto get = reinterpret_cast<GetFn>(dlsym(lib, "cuDeviceGet"));
  auto attr = reinterpret_cast<AttrFn>(dlsym(lib, "cuDeviceGetAttribute"));
  if (!init || !count || !get || !attr) {
    return fail(ErrorCode::driver, "the CUDA driver library lacks cuInit/cuDeviceGetAttribute");
  }
  // No device (or no usable driver) is a normal answer here, not an error.
  if (init(0) != CUDA_SUCCESS) return ccs;
  int n = 0;
  if (count(&n) != CUDA_SUCCESS) return ccs;
  for (int i = 0; i < n; ++i) {
    CUdevice dev{};
    int major = 0, minor = 0;
    if (get(&dev, i) != CUDA_SUCCESS ||
        attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) != CUDA_SUCCESS ||
        attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) != CUDA_SUCCESS) {
      return fail(ErrorCode::driver,
                  "cannot read the compute capability of device " + std::to_string(i));
    }
    ccs.push_back(static_cast<std::uint32_t>(major * 10 + minor));
  }
  std::sort(ccs.begin(), ccs.end());
  ccs.erase(std::unique(ccs.begin(), ccs.end()), ccs.end());
  return ccs;
}

}  // namespace cccl_cache::cli
