#include "dir_safety.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cccl_cache::detail {
namespace fs = std::filesystem;

namespace {
std::string octal(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}
}  // namespace

Result<DirInfo> prepare_dir(const Config& config) {
  DirInfo info;
  if (config.dir.empty()) return fail(ErrorCode::invalid_argument, "cache directory is empty; set dir or CCCL_CACHE_DIR");
  info.path = config.dir;
  const mode_t mode = config.shared ? 0770 : 0700;
  struct stat st {};
  if (::stat(info.path.c_str(), &st) != 0) {
    if (errno != ENOENT)
      return fail(ErrorCode::io, "cannot stat cache directory " + info.path.string() + ": " + std::strerror(errno));
    if (config.read_only) return info;  // nothing to read: the store misses everything
    std::error_code ec;
    if (info.path.has_parent_path()) fs::create_directories(info.path.parent_path(), ec);
    if (::mkdir(info.path.c_str(), mode) == 0) {
      ::chmod(info.path.c_str(), mode);  // mkdir honours the umask; the mode must not
    } else if (errno == EACCES || errno == EROFS || errno == EPERM) {
      return info;  // cannot create it: an empty store that misses everything
    } else if (errno != EEXIST) {  // EEXIST: another process created it meanwhile
      return fail(ErrorCode::io, "cannot create cache directory " + info.path.string() + ": " + std::strerror(errno));
    }
    if (::stat(info.path.c_str(), &st) != 0)
      return fail(ErrorCode::io, "cannot stat cache directory " + info.path.string() + ": " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode))
    return fail(ErrorCode::invalid_argument, "cache path " + info.path.string() + " is not a directory");
  const std::string where = "cache directory " + info.path.string();
  if (st.st_mode & S_IWOTH)
    return fail(ErrorCode::permission, where + " is writable by every user (mode " + octal(st.st_mode) +
                                           "); anyone could plant code in it. Run `chmod o-w " + info.path.string() +
                                           "` or use another directory");
  if ((st.st_mode & S_IWGRP) && !config.shared)
    return fail(ErrorCode::permission, where + " is group-writable (mode " + octal(st.st_mode) +
                                           "); run `chmod g-w " + info.path.string() +
                                           "`, or set shared = true (CCCL_CACHE_SHARED=1) if it is a deliberate group cache");
  if (st.st_uid != ::geteuid() && !config.shared)
    return fail(ErrorCode::permission, where + " is owned by uid " + std::to_string(st.st_uid) + ", not by you (uid " +
                                           std::to_string(::geteuid()) +
                                           "); use your own cache directory, or set shared = true (CCCL_CACHE_SHARED=1) "
                                           "if it is a deliberate shared cache");
  info.exists = true;
  info.dev = st.st_dev;
  info.ino = st.st_ino;
  info.writable = !config.read_only && ::access(info.path.c_str(), W_OK) == 0;
  info.has_data = ::access((info.path / "data.mdb").c_str(), F_OK) == 0;
  return info;
}

}  // namespace cccl_cache::detail
