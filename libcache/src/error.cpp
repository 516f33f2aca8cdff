#include "cccl_cache/cache/error.hpp"

namespace cccl_cache {

const char* to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::invalid_argument:
      return "invalid_argument";
    case ErrorCode::not_found:
      return "not_found";
    case ErrorCode::io:
      return "io";
    case ErrorCode::permission:
      return "permission";
    case ErrorCode::read_only:
      return "read_only";
    case ErrorCode::corrupt:
      return "corrupt";
    case ErrorCode::format:
      return "format";
    case ErrorCode::unsupported:
      return "unsupported";
    case ErrorCode::storage_full:
      return "storage_full";
    case ErrorCode::lmdb:
      return "lmdb";
    case ErrorCode::compile:
      return "compile";
    case ErrorCode::driver:
      return "driver";
    case ErrorCode::internal:
      return "internal";
  }
  return "unknown";
}

std::string Error::describe() const {
  std::string out = to_string(code);
  out += ": ";
  for (char c : message) out += (c == '\n' || c == '\r') ? ' ' : c;  // one line
  return out;
}

}  // namespace cccl_cache
