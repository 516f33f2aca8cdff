// Move-only RAII wrappers for the CUDA driver handles libalgos owns, and the
// error helper every driver call site uses. Private to libalgos.
#pragma once

#include <cuda.h>

#include <string>
#include <utility>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// "cuLibraryLoadData: CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)".
inline Error driver_error(const char* what, CUresult rc) {
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(rc, &name);
  cuGetErrorString(rc, &text);
  return Error{ErrorCode::driver, std::string(what) + ": " + (name ? name : "unknown CUresult") +
                                      " (" + (text ? text : "no description") + ")"};
}

// A retained primary context of one device; released on destruction.
class PrimaryContext {
 public:
  PrimaryContext() = default;
  static Result<PrimaryContext> retain(CUdevice device) {
    CUcontext ctx = nullptr;
    if (CUresult rc = cuDevicePrimaryCtxRetain(&ctx, device); rc != CUDA_SUCCESS)
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
    if (ctx_) cuDevicePrimaryCtxRelease(device_);
    ctx_ = nullptr;
  }
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr;
};

// Makes `ctx` current on this thread for the guard's lifetime (push/pop).
class ScopedCurrentContext {
 public:
  static Result<ScopedCurrentContext> push(CUcontext ctx) {
    if (CUresult rc = cuCtxPushCurrent(ctx); rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuCtxPushCurrent", rc));
    return ScopedCurrentContext(true);
  }
  ScopedCurrentContext(ScopedCurrentContext&& o) noexcept
      : pushed_(std::exchange(o.pushed_, false)) {}
  ScopedCurrentContext& operator=(ScopedCurrentContext&&) = delete;
  ScopedCurrentContext(const ScopedCurrentContext&) = delete;
  ~ScopedCurrentContext() {
    CUcontext popped = nullptr;
    if (pushed_) cuCtxPopCurrent(&popped);
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
    CUlibrary lib = nullptr;
    if (CUresult rc = cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
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
    if (lib_) cuLibraryUnload(lib_);
    lib_ = nullptr;
  }
  CUlibrary lib_ = nullptr;
};

}  // namespace cccl_cache::algos::detail
