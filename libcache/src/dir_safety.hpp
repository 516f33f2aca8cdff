// Creating and vetting the cache directory before LMDB touches it.
#pragma once

#include <sys/types.h>

#include <filesystem>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::detail {

struct DirInfo {
  std::filesystem::path path;
  dev_t dev = 0;
  ino_t ino = 0;
  bool exists = false;    // false only when read-only and the directory is absent
  bool writable = false;  // not read_only by config and the directory is writable
  bool has_data = false;  // data.mdb is present
};

// Creates config.dir (mode 0700, or 02770 when shared, whatever the umask) unless
// read-only, then refuses it with ErrorCode::permission when it is world-writable,
// group-writable without `shared`, or owned by another user without `shared`, and
// with ErrorCode::unsupported when it is on a network filesystem (unless read-only).
Result<DirInfo> prepare_dir(const Config& config);

// "NFS", "Lustre", ... for a statfs f_type of a network filesystem; null otherwise.
const char* network_filesystem_name(long fs_type);

}  // namespace cccl_cache::detail
