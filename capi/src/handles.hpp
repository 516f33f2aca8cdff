// The C ABI's handles and error plumbing (cccl_cache.h): what the opaque types hold, the
// per-thread last error, and the guard that keeps every exception on this side.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "cccl_cache.h"
#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/cache/store.hpp"

struct cccl_cache_store {
  std::shared_ptr<cccl_cache::Store> store;
  std::unique_ptr<cccl_cache::algos::AlgorithmCache> cache;
  std::string dir;
};

struct cccl_cache_spec {
  cccl_cache::algos::AnySpec any;
  std::string text;  // spec_text(any)
};

// A bound executable of any algorithm: `exe` points to the ExecutableOf<Spec> of
// `kind`, kept alive by `owner` (the AlgorithmCache hands out shared executables).
struct cccl_cache_algorithm {
  cccl_cache::algos::AlgorithmId kind;
  std::shared_ptr<const void> owner;
  const void* exe = nullptr;
  int device = -1;
  std::uint32_t cc = 0;
};

namespace cccl_cache::capi {

// Records `message` as the calling thread's last error and returns `status`.
cccl_cache_status set_error(cccl_cache_status status, std::string_view message) noexcept;
// The same for a library error (its code mapped to a status, its message kept).
cccl_cache_status set_error(const Error& error) noexcept;
// INVALID_ARGUMENT "<function>: <what> is NULL".
cccl_cache_status null_argument(const char* function, const char* what) noexcept;

// Runs `body` (returning a cccl_cache_status), turning any exception into a status and
// message: nothing is thrown across the ABI.
template <class Body>
cccl_cache_status guarded(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return set_error(CCCL_CACHE_ERROR_OUT_OF_MEMORY, std::string(function) + ": out of host memory");
  } catch (const std::exception& e) {
    return set_error(CCCL_CACHE_ERROR_INTERNAL, std::string(function) + ": " + e.what());
  } catch (...) {
    return set_error(CCCL_CACHE_ERROR_INTERNAL, std::string(function) + ": unknown exception");
  }
}

}  // namespace cccl_cache::capi
