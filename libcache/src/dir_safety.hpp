// Creating and vetting the cache directory and its two LMDB files before and after
// LMDB opens them: who owns them, who may write them, and that LMDB opened the very
// files that were vetted.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::detail {

// An open O_DIRECTORY|O_NOFOLLOW descriptor of the cache directory, closed with the
// last copy of its DirInfo.
struct DirFd {
  explicit DirFd(int descriptor) : fd(descriptor) {}
  ~DirFd();
  DirFd(const DirFd&) = delete;
  DirFd& operator=(const DirFd&) = delete;
  const int fd;
};

struct DirInfo {
  std::filesystem::path path;
  std::shared_ptr<const DirFd> handle;  // null when !exists
  dev_t dev = 0;
  ino_t ino = 0;
  gid_t gid = 0;
  bool exists = false;        // false only when the directory is absent and cannot be created
  bool writable = false;      // not read-only/immutable by config and the directory is writable
  bool has_data = false;      // data.mdb is present
  bool read_only_fs = false;  // the filesystem is mounted read-only (LMDB then skips its locks)
  const char* network_fs = nullptr;  // "NFS", ... (only with immutable: read without locks)
  int fd() const { return handle ? handle->fd : -1; }
};

// Creates config.dir (mode 0700, or 02770 when shared, whatever the umask) unless
// read-only, opens it once (O_DIRECTORY|O_NOFOLLOW) and vets it and any data.mdb /
// lock.mdb inside. Errors (ErrorCode::permission, the message says what to run):
//  - the directory: a symlink, writable by every user (sticky or not); without
//    `shared`: owned by another user or group-writable; with `shared`: owned by
//    anyone but this user or root, or of a group this user is not in;
//  - data.mdb / lock.mdb: not a regular file (a symlink), writable by every user;
//    without `shared`: owned by another user or group-writable; with `shared`: owned
//    by a user outside the directory's group, or group-writable by another group.
// ErrorCode::unsupported on a network filesystem unless config.immutable.
Result<DirInfo> prepare_dir(const Config& config);

// After mdb_env_open: the data file LMDB holds open (`data_fd`, from mdb_env_get_fd)
// must be the data.mdb in the vetted directory (same device and inode), pass the file
// checks above (so must lock.mdb, when present), and config.dir must still name the
// vetted directory. permission otherwise.
Result<void> check_opened(const Config& config, const DirInfo& dir, int data_fd);

// Creates (mode 0700, or 02770 with `shared`, whatever the umask) and opens the
// subdirectory `name` of the vetted, writable cache directory `dir`, never through a
// symlink, and vets it: a directory, not writable by every user; without `shared`
// owned by this user and not group-writable; with `shared` owned by a member of the
// directory's group (or root) and of that group. Errors: permission (the message says
// what to run), io.
Result<std::shared_ptr<const DirFd>> open_subdir(const Config& config, const DirInfo& dir,
                                                 const char* name);

// "NFS", "Lustre", ... for a statfs f_type of a network filesystem; null otherwise.
const char* network_filesystem_name(long fs_type);

}  // namespace cccl_cache::detail
