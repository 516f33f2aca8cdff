#include "dir_safety.hpp"

#include <sys/stat.h>
#include <sys/vfs.h>
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

const char* network_filesystem_name(long fs_type) {
  switch (static_cast<unsigned long>(fs_type) & 0xffffffffu) {
    case 0x6969:
      return "NFS";
    case 0xff534d42:
      return "CIFS";
    case 0xfe534d42:
      return "SMB2";
    case 0x517b:
      return "SMB";
    case 0x0bd00bd0:
      return "Lustre";
    case 0x47504653:
      return "GPFS";
    case 0x00c36400:
      return "CephFS";
    case 0x013111a8:
      return "IBRIX";
    case 0x19830326:
      return "BeeGFS";
    default:
      return nullptr;
  }
}

Result<DirInfo> prepare_dir(const Config& config) {
  DirInfo info;
  if (config.dir.empty())
    return fail(ErrorCode::invalid_argument, "cache directory is empty; set dir or CCCL_CACHE_DIR");
  info.path = config.dir;
  // Shared: setgid so that files created inside belong to the directory's group.
  const mode_t mode = config.shared ? 02770 : 0700;
  struct stat st {};
  if (::stat(info.path.c_str(), &st) != 0) {
    if (errno != ENOENT)
      return fail(ErrorCode::io, "cannot stat cache directory " + info.path.string() + ": " +
                                     std::strerror(errno));
    if (config.read_only) return info;  // nothing to read: the store misses everything
    std::error_code ec;
    if (info.path.has_parent_path()) fs::create_directories(info.path.parent_path(), ec);
    if (::mkdir(info.path.c_str(), mode) == 0) {
      ::chmod(info.path.c_str(), mode);  // mkdir honours the umask; the mode must not
    } else if (errno == EACCES || errno == EROFS || errno == EPERM) {
      return info;                 // cannot create it: an empty store that misses everything
    } else if (errno != EEXIST) {  // EEXIST: another process created it meanwhile
      return fail(ErrorCode::io, "cannot create cache directory " + info.path.string() + ": " +
                                     std::strerror(errno));
    }
    if (::stat(info.path.c_str(), &st) != 0)
      return fail(ErrorCode::io, "cannot stat cache directory " + info.path.string() + ": " +
                                     std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode))
    return fail(ErrorCode::invalid_argument,
                "cache path " + info.path.string() + " is not a directory");
  const std::string where = "cache directory " + info.path.string();
  if (st.st_mode & S_IWOTH)
    return fail(ErrorCode::permission, where + " is writable by every user (mode " +
                                           octal(st.st_mode) +
                                           "); anyone could plant code in it. Run `chmod o-w " +
                                           info.path.string() + "` or use another directory");
  if ((st.st_mode & S_IWGRP) && !config.shared)
    return fail(
        ErrorCode::permission,
        where + " is group-writable (mode " + octal(st.st_mode) + "); run `chmod g-w " +
            info.path.string() +
            "`, or set shared = true (CCCL_CACHE_SHARED=1) if it is a deliberate group cache");
  if (st.st_uid != ::geteuid() && !config.shared)
    return fail(ErrorCode::permission,
                where + " is owned by uid " + std::to_string(st.st_uid) + ", not by you (uid " +
                    std::to_string(::geteuid()) +
                    "); use your own cache directory, or set shared = true (CCCL_CACHE_SHARED=1) "
                    "if it is a deliberate shared cache");
  struct statfs fs {};
  if (::statfs(info.path.c_str(), &fs) == 0)
    if (const char* net = network_filesystem_name(static_cast<long>(fs.f_type));
        net && !config.read_only)
      return fail(ErrorCode::unsupported,
                  where + " is on a network filesystem (" + net +
                      "): LMDB's locks and memory map are not coherent there and the cache "
                      "would corrupt. Use a local directory (e.g. under /tmp or /var/tmp), or "
                      "set read_only = true for a prewarmed image");
  info.exists = true;
  info.dev = st.st_dev;
  info.ino = st.st_ino;
  info.writable = !config.read_only && ::access(info.path.c_str(), W_OK) == 0;
  info.has_data = ::access((info.path / "data.mdb").c_str(), F_OK) == 0;
  return info;
}

}  // namespace cccl_cache::detail
