// Status codes, the per-thread last error and the library's version.
#include <string>

#include "handles.hpp"

#ifndef CCCL_CACHE_VERSION
#error "CCCL_CACHE_VERSION must be defined by the build (capi/CMakeLists.txt)"
#endif

namespace cccl_cache::capi {

namespace {

thread_local std::string last_error;

cccl_cache_status status_of(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::invalid_argument: return CCCL_CACHE_ERROR_INVALID_ARGUMENT;
    case ErrorCode::not_found: return CCCL_CACHE_ERROR_NOT_FOUND;
    case ErrorCode::io: return CCCL_CACHE_ERROR_IO;
    case ErrorCode::permission: return CCCL_CACHE_ERROR_PERMISSION;
    case ErrorCode::read_only: return CCCL_CACHE_ERROR_READ_ONLY;
    case ErrorCode::corrupt:
    case ErrorCode::format: return CCCL_CACHE_ERROR_CORRUPT;
    case ErrorCode::unsupported: return CCCL_CACHE_ERROR_UNSUPPORTED;
    case ErrorCode::storage_full: return CCCL_CACHE_ERROR_STORAGE_FULL;
    case ErrorCode::lmdb: return CCCL_CACHE_ERROR_STORE;
    case ErrorCode::compile: return CCCL_CACHE_ERROR_COMPILE;
    case ErrorCode::driver: return CCCL_CACHE_ERROR_DRIVER;
    case ErrorCode::internal: return CCCL_CACHE_ERROR_INTERNAL;
  }
  return CCCL_CACHE_ERROR_INTERNAL;
}

}  // namespace

cccl_cache_status set_error(cccl_cache_status status, std::string_view message) noexcept {
  try {
    last_error.assign(message);
  } catch (...) {
    last_error.clear();  // no memory for the message: the status still says what
  }
  return status;
}

cccl_cache_status set_error(const Error& error) noexcept {
  return set_error(status_of(error.code), error.message);
}

cccl_cache_status null_argument(const char* function, const char* what) noexcept {
  try {
    return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                     std::string(function) + ": " + what + " is NULL");
  } catch (...) {
    return CCCL_CACHE_ERROR_INVALID_ARGUMENT;
  }
}

}  // namespace cccl_cache::capi

extern "C" {

const char* cccl_cache_version(void) { return CCCL_CACHE_VERSION; }

int cccl_cache_abi_version(void) { return CCCL_CACHE_ABI_VERSION; }

const char* cccl_cache_last_error(void) { return cccl_cache::capi::last_error.c_str(); }

const char* cccl_cache_status_name(cccl_cache_status status) {
  switch (status) {
    case CCCL_CACHE_OK: return "ok";
    case CCCL_CACHE_ERROR_INVALID_ARGUMENT: return "invalid_argument";
    case CCCL_CACHE_ERROR_NOT_FOUND: return "not_found";
    case CCCL_CACHE_ERROR_IO: return "io";
    case CCCL_CACHE_ERROR_PERMISSION: return "permission";
    case CCCL_CACHE_ERROR_READ_ONLY: return "read_only";
    case CCCL_CACHE_ERROR_CORRUPT: return "corrupt";
    case CCCL_CACHE_ERROR_UNSUPPORTED: return "unsupported";
    case CCCL_CACHE_ERROR_STORAGE_FULL: return "storage_full";
    case CCCL_CACHE_ERROR_STORE: return "store";
    case CCCL_CACHE_ERROR_COMPILE: return "compile";
    case CCCL_CACHE_ERROR_DRIVER: return "driver";
    case CCCL_CACHE_ERROR_OUT_OF_MEMORY: return "out_of_memory";
    case CCCL_CACHE_ERROR_INTERNAL: return "internal";
  }
  return "unknown";
}

}  // extern "C"
