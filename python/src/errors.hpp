// Errors of the Python module: the library's Error and CUresult as Python exceptions.
#pragma once

#include <cuda.h>

#include <type_traits>

#include <nanobind/nanobind.h>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::python {

namespace nb = nanobind;

// Registers cccl_cache.Error (a RuntimeError with `code`, the library's error code
// name) in `m`.
void register_errors(nb::module_& m);

// Raises ValueError for invalid_argument, cccl_cache.Error otherwise ("<code>: <message>").
[[noreturn]] void raise(const Error& e);

// Raises cccl_cache.Error ("driver: <what>: CUDA error <n> (<name>)") unless rc is CUDA_SUCCESS.
inline void check_cuda(CUresult rc, const char* what) {
  if (rc != CUDA_SUCCESS) raise(Error{ErrorCode::driver, std::string(what) + ": CUDA error " +
                                                             std::to_string(static_cast<int>(rc))});
}

// The value of a Result, or raise(error).
template <class T>
T take(Result<T>&& r) {
  if (!r) raise(r.error());
  if constexpr (!std::is_void_v<T>) return std::move(*r);
}

}  // namespace cccl_cache::python
