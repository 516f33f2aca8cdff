// Move-only RAII wrappers for the CUDA driver handles libalgos owns, calling the
// driver through the table loaded at run time (cuda_driver.hpp): the factories
// fail with driver()'s error where there is no driver, so a wrapper holding a
// handle implies a loaded table. Private to libalgos.
#pragma once

#include <cuda.h>

#include <string>
#include <utility>

#include "cccl_cache/cache/error.hpp"
#include "cuda_driver.hpp"

namespace cccl_cache::algos::detail {

// A retained primary context of one device; released on destruction.
class PrimaryContext {
 public:
  PrimaryContext() = default;
  static Result<PrimaryContext> retain(CUdevice device) {
    const auto& api = driver();
    if (!api) return tl::unexpected(api.error());
    CUcontext ctx = nullptr;
    if (CUresult rc = (*api)->cuDevicePrimaryCtxRetain(&ctx, device); rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuDevicePrimaryCtxRetain", rc));
    return PrimaryContext(device, ctx);
  }
  PrimaryContext(PrimaryContext&& o) noexcept
      : device_(o.device_), ctx_(std::exchange(o.ctx_, nullptr)) {}
  PrimaryContext& operator=(PrimaryContext&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = o.device_;
      ctx_ = std::exchange(o.ctx_, nullptr);
    }
    return *this;
  }
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;
  ~PrimaryContext() { reset(); }

  CUcontext get() const noexcept { return ctx_; }
  // Forgets the handle without releasing it (a fork()ed child must not call the driver
  // with its parent's handles).
  void abandon() noexcept { ctx_ = nullptr; }

 private:
  PrimaryContext(CUdevice device, CUcontext ctx) : device_(device), ctx_(ctx) {}
  void reset() noexcept {
    if (ctx_) loaded_driver().cuDevicePrimaryCtxRelease(device_);
    ctx_ = nullptr;
  }
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr;
};

// Makes `ctx` current on this thread for the guard's lifetime (push/pop).
class ScopedCurrentContext {
 public:
  static Result<ScopedCurrentContext> push(CUcontext ctx) {
    const auto& api = driver();
    if (!api) return tl::unexpected(api.error());
    if (CUresult rc = (*api)->cuCtxPushCurrent(ctx); rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuCtxPushCurrent", rc));
    return ScopedCurrentContext(true);
  }
  ScopedCurrentContext(ScopedCurrentContext&& o) noexcept
      : pushed_(std::exchange(o.pushed_, false)) {}
  ScopedCurrentContext& operator=(ScopedCurrentContext&&) = delete;
  ScopedCurrentContext(const ScopedCurrentContext&) = delete;
  ~ScopedCurrentContext() {
    CUcontext popped = nullptr;
    if (pushed_) loaded_driver().cuCtxPopCurrent(&popped);
  }

 private:
  explicit ScopedCurrentContext(bool pushed) : pushed_(pushed) {}
  bool pushed_ = false;
};

// A CUmodule loaded into one context (cuModuleLoadData: in a new process about 40%
// cheaper than the context-independent cuLibraryLoadData, GPU run 8); unloaded on
// destruction, with its context pushed for the call.
class Module {
 public:
  Module() = default;
  // Loads `image` (a cubin; the driver copies it, the caller may free it afterwards)
  // into `ctx`, which must be current on this thread.
  static Result<Module> load_data(CUcontext ctx, const void* image) {
    const auto& api = driver();
    if (!api) return tl::unexpected(api.error());
    CUmodule mod = nullptr;
    if (CUresult rc = (*api)->cuModuleLoadData(&mod, image); rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuModuleLoadData", rc));
    return Module(ctx, mod);
  }
  Module(Module&& o) noexcept
      : ctx_(std::exchange(o.ctx_, nullptr)), mod_(std::exchange(o.mod_, nullptr)) {}
  Module& operator=(Module&& o) noexcept {
    if (this != &o) {
      reset();
      ctx_ = std::exchange(o.ctx_, nullptr);
      mod_ = std::exchange(o.mod_, nullptr);
    }
    return *this;
  }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  ~Module() { reset(); }

  CUmodule get() const noexcept { return mod_; }
  // Forgets the handle without unloading it (see PrimaryContext::abandon).
  void abandon() noexcept {
    mod_ = nullptr;
    ctx_ = nullptr;
  }

 private:
  Module(CUcontext ctx, CUmodule mod) : ctx_(ctx), mod_(mod) {}
  void reset() noexcept {
    if (mod_) {
      const auto& cu = loaded_driver();
      CUcontext popped = nullptr;
      const bool pushed = cu.cuCtxPushCurrent(ctx_) == CUDA_SUCCESS;
      cu.cuModuleUnload(mod_);
      if (pushed) cu.cuCtxPopCurrent(&popped);
    }
    mod_ = nullptr;
    ctx_ = nullptr;
  }
  CUcontext ctx_ = nullptr;
  CUmodule mod_ = nullptr;
};

}  // namespace cccl_cache::algos::detail
