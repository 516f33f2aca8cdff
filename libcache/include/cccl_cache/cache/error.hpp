// One error type for the whole project: a code and a message that says what
// failed and what to do. Fallible functions return Result<T>; a cache miss is a
// value (std::optional), never an Error.
#pragma once

#include <string>
#include <tl/expected.hpp>
#include <utility>

namespace cccl_cache {

enum class ErrorCode {
  invalid_argument,  // bad input from the caller (spec, key text, option)
  not_found,         // a named thing (directory, entry asked for explicitly) is absent
  io,                // filesystem failure (open, read, write, fsync)
  permission,        // unsafe or foreign-owned directory, no write access
  read_only,         // a write was asked of a store opened read-only
  corrupt,           // checksum mismatch or malformed bytes
  format,            // well-formed bytes of another format/toolchain version
  unsupported,       // unsupported compute capability, type or operation
  storage_full,      // map or disk full and could not grow
  lmdb,              // any other LMDB failure
  compile,           // NVRTC / nvJitLink failure (message carries the log)
  driver,            // CUDA driver failure
  internal,          // a bug: an invariant did not hold
};

// Returns a stable, lower-case name for `code` ("corrupt", "io", ...).
const char* to_string(ErrorCode code) noexcept;

struct Error {
  ErrorCode code;
  std::string message;

  // "<code>: <message>", one line, for logs and the CLI.
  std::string describe() const;
};

template <class T>
using Result = tl::expected<T, Error>;

// Shorthand: `return fail(ErrorCode::io, "cannot open ...");`
inline tl::unexpected<Error> fail(ErrorCode code, std::string message) {
  return tl::unexpected<Error>(Error{code, std::move(message)});
}

}  // namespace cccl_cache

// Propagation helpers for functions returning Result<...>:
//   CCCL_CACHE_TRY(auto spec, decode(bytes));  // on error: return it; else bind the value
//   CCCL_CACHE_CHECK(spec.validate());         // for Result<void>
#define CCCL_CACHE_TRY(decl, expr) \
  CCCL_CACHE_TRY_IMPL_(CCCL_CACHE_CONCAT_(cccl_cache_try_, __LINE__), decl, expr)
#define CCCL_CACHE_CHECK(expr)                                                  \
  do {                                                                          \
    if (auto cccl_cache_check_ = (expr); !cccl_cache_check_)                    \
      return ::tl::unexpected<::cccl_cache::Error>(std::move(cccl_cache_check_).error()); \
  } while (false)
#define CCCL_CACHE_TRY_IMPL_(tmp, decl, expr)                                   \
  auto tmp = (expr);                                                            \
  if (!tmp) return ::tl::unexpected<::cccl_cache::Error>(std::move(tmp).error()); \
  decl = std::move(*tmp)
#define CCCL_CACHE_CONCAT_(a, b) CCCL_CACHE_CONCAT2_(a, b)
#define CCCL_CACHE_CONCAT2_(a, b) a##b
