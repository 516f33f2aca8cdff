// The one bind: a build record's cubin loaded into a device's primary context,
// every kernel resolved to a CUfunction once (and its code loaded, so lazy loading
// leaves nothing for the first call), and the device facts a dispatch needs fixed.
// Algorithms build their Executable on top of a BoundModule. Private to libalgos.
#pragma once

#include <cuda.h>

#include <array>
#include <cstdint>
#include <span>

#include "cccl_cache/algos/core/build_record.hpp"
#include "core/launch.hpp"
#include "cuda_handles.hpp"
#include "device_facts.hpp"

namespace cccl_cache::algos::detail {

struct BoundModule {
  BoundModule() = default;
  BoundModule(BoundModule&&) noexcept = default;
  BoundModule& operator=(BoundModule&&) noexcept = default;
  // In a fork()ed child the handles belong to the parent's CUDA state (not inherited):
  // they are forgotten, never passed to the driver.
  ~BoundModule() {
    if (!in_this_process()) {
      module.abandon();
      context.abandon();
    }
  }
  // Whether the handles belong to this process (false in a fork()ed child). Lock-free.
  bool in_this_process() const noexcept { return generation == fork_generation(); }

  // Declaration order matters: the module is unloaded before the context is released.
  PrimaryContext context;
  Module module;
  std::array<CUfunction, kMaxKernels> functions{};  // the record's kernel order
  DeviceFacts facts;                                // of the bound device
  int device = -1;
  std::uint32_t cc = 0;
  // What the dispatch's launcher factory answers (core/launch.cuh), fixed here.
  LaunchContext launch;
  std::uint64_t generation = fork_generation();  // at bind
};

// Binds `record` to ordinal `device`; `block_threads[i]` is the block size the dispatch
// launches kernel i with, checked against what the driver allows for it (its launch
// bounds and register use); its occupancy at that size is fixed in `launch`. Errors: driver (no usable NVIDIA driver: "no NVIDIA driver
// found (...)"; no such device; load or resolve failure; a fork()ed child of a process
// that had initialized CUDA), unsupported (the device's CC differs from record.cc),
// invalid_argument (no cubin or kernels), corrupt (a kernel cannot run that many threads).
[[nodiscard]] Result<BoundModule> bind_module(const BuildRecordView& record, int device,
                                              std::span<const std::uint32_t> block_threads);

}  // namespace cccl_cache::algos::detail
