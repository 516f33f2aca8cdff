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

// A loaded CUlibrary; unloaded on destruction (from every context).
class Library {
 public:
  Library() = default;
  // `image` is a cubin; the driver copies it (the caller may free it afterwards).
  static Result<Library> load_data(const void* image) {
    const auto& api = driver();
    if (!api) return tl::unexpected(api.error());
    CUlibrary lib = nullptr;
    if (CUresult rc =
            (*api)->cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
        rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuLibraryLoadData", rc));
    return Library(lib);
  }
  Library(Library&& o) noexcept : lib_(std::exchange(o.lib_, nullptr)) {}
  Library& operator=(Library&& o) noexcept {
    if (this != &o) {
      reset();
      lib_ = std::exchange(o.lib_, nullptr);
    }
    return *this;
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  ~Library() { reset(); }

  CUlibrary get() const noexcept { return lib_; }

 private:
  explicit Library(CUlibrary lib) : lib_(lib) {}
  void reset() noexcept {
    if (lib_) loaded_driver().cuLibraryUnload(lib_);
    lib_ = nullptr;
  }
  CUlibrary lib_ = nullptr;
};

}  // namespace cccl_cache::algos::detail
