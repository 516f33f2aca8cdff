// The one bind: a build record's cubin loaded into a device's primary context,
// every kernel resolved to a CUfunction once (and its code loaded, so lazy loading
// leaves nothing for the first call), and the device facts a dispatch needs fixed.
// Algorithms build their Executable on top of a BoundModule. Private to libalgos.
#pragma once

#include <cuda.h>

#include <array>
#include <cstdint>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cuda_handles.hpp"
#include "device_facts.hpp"

namespace cccl_cache::algos::detail {

struct BoundModule {
  // Declaration order matters: the module is unloaded before the context is released.
  PrimaryContext context;
  Module module;
  std::array<CUfunction, kMaxKernels> functions{};  // the record's kernel order
  DeviceFacts facts;                                // of the bound device
  int device = -1;
  std::uint32_t cc = 0;
  // The driver's cuLaunchKernelEx, resolved once: launches call it directly.
  decltype(&::cuLaunchKernelEx) launch = nullptr;
  // Programmatic dependent launch (CC >= 9.0), as CUB uses it.
  bool dependent_launch = false;
};

// Binds `record` to ordinal `device`. Errors: driver (no usable NVIDIA driver: "no
// NVIDIA driver found (...)"; no such device; load or resolve failure), unsupported
// (the device's CC differs from record.cc), invalid_argument (no cubin or kernels).
[[nodiscard]] Result<BoundModule> bind_module(const BuildRecordView& record, int device);

}  // namespace cccl_cache::algos::detail
