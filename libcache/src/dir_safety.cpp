#include "dir_safety.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace cccl_cache::detail {
namespace fs = std::filesystem;

namespace {
std::string octal(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}

std::string errno_text() { return std::strerror(errno); }

// Whether this process's effective or supplementary groups include `gid`.
bool in_my_groups(gid_t gid) {
  if (gid == ::getegid()) return true;
  const int n = ::getgroups(0, nullptr);
  if (n <= 0) return false;
  std::vector<gid_t> groups(static_cast<std::size_t>(n));
  const int got = ::getgroups(n, groups.data());
  return got > 0 && std::find(groups.begin(), groups.begin() + got, gid) != groups.begin() + got;
}

// Whether user `uid` may write a shared cache whose directory belongs to group `gid`:
// this user when in the group, root, or a user whose primary or supplementary groups
// (passwd and group databases) include `gid`.
bool uid_in_group(uid_t uid, gid_t gid) {
  if (uid == 0) return true;
  if (uid == ::geteuid()) return in_my_groups(gid);
  passwd pw{}, *found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) != 0 || !found) return false;
  if (pw.pw_gid == gid) return true;
  int n = 256;
  std::vector<gid_t> groups(static_cast<std::size_t>(n));
  if (::getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &n) < 0) {
    groups.resize(static_cast<std::size_t>(n));
    if (::getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &n) < 0) return false;
  }
  return std::find(groups.begin(), groups.begin() + n, gid) != groups.begin() + n;
}

const char* kSharedHint =
    "set shared = true (CCCL_CACHE_SHARED=1) if it is a deliberate group cache";

// The directory rules of prepare_dir(); `st` is the fstat of the opened directory.
Result<void> check_dir(const Config& config, const std::filesystem::path& path,
                       const struct stat& st) {
  const std::string where = "cache directory " + path.string();
  if (!S_ISDIR(st.st_mode))
    return fail(ErrorCode::invalid_argument, "cache path " + path.string() + " is not a directory");
  if (st.st_mode & S_IWOTH)
    return fail(ErrorCode::permission,
                where + " is writable by every user (mode " + octal(st.st_mode) +
                    "); anyone could plant code in it (a sticky bit does not help). Run "
                    "`chmod o-w " +
                    path.string() + "` or use another directory");
  const uid_t me = ::geteuid();
  if (!config.shared) {
    if (st.st_mode & S_IWGRP)
      return fail(ErrorCode::permission, where + " is group-writable (mode " + octal(st.st_mode) +
                                             "); run `chmod g-w " + path.string() + "`, or " +
                                             kSharedHint);
    if (st.st_uid != me)
      return fail(ErrorCode::permission, where + " is owned by uid " + std::to_string(st.st_uid) +
                                             ", not by you (uid " + std::to_string(me) +
                                             "); use your own cache directory, or " + kSharedHint +
                                             " (a shared directory must be owned by you or root)");
    return {};
  }
  if (st.st_uid != me && st.st_uid != 0)
    return fail(
        ErrorCode::permission,
        where + " is owned by uid " + std::to_string(st.st_uid) +
            ": a shared cache directory must be owned by you (uid " + std::to_string(me) +
            ") or root, who alone decide who may write it (e.g. root runs `chown root:GROUP " +
            path.string() + " && chmod 2770 " + path.string() + "`)");
  if (!in_my_groups(st.st_gid))
    return fail(ErrorCode::permission,
                where + " belongs to group " + std::to_string(st.st_gid) +
                    ", which you are not in: a shared cache directory must belong to one of "
                    "your groups (its members are who may write it)");
  return {};
}

// The file rules of prepare_dir() for `name` ("data.mdb", "lock.mdb") with status `st`
// (not following symlinks); `dir_gid` is the directory's group.
Result<void> check_file(const Config& config, const std::filesystem::path& dir, const char* name,
                        const struct stat& st, gid_t dir_gid) {
  const auto path = (dir / name).string();
  if (S_ISLNK(st.st_mode))
    return fail(ErrorCode::permission,
                path +
                    " is a symbolic link; the store's files must be regular files inside its "
                    "directory. Remove it (the store is rebuilt) or use another directory");
  if (!S_ISREG(st.st_mode))
    return fail(ErrorCode::permission, path + " is not a regular file; remove it");
  if (st.st_mode & S_IWOTH)
    return fail(ErrorCode::permission, path + " is writable by every user (mode " +
                                           octal(st.st_mode) + "); run `chmod o-w " + path +
                                           "` if nobody else wrote it, else remove the store");
  const uid_t me = ::geteuid();
  if (!config.shared) {
    if (st.st_uid != me)
      return fail(ErrorCode::permission, path + " is owned by uid " + std::to_string(st.st_uid) +
                                             ", not by you (uid " + std::to_string(me) +
                                             "); remove the store, or " + kSharedHint);
    if (st.st_mode & S_IWGRP)
      return fail(ErrorCode::permission, path + " is group-writable (mode " + octal(st.st_mode) +
                                             "); run `chmod g-w " + path + "`, or " + kSharedHint);
    return {};
  }
  if (!uid_in_group(st.st_uid, dir_gid))
    return fail(ErrorCode::permission,
                path + " is owned by uid " + std::to_string(st.st_uid) +
                    ", who is not a member of the shared directory's group " +
                    std::to_string(dir_gid) + "; remove the store or ask the group to");
  if ((st.st_mode & S_IWGRP) && st.st_gid != dir_gid)
    return fail(ErrorCode::permission, path + " is writable by group " + std::to_string(st.st_gid) +
                                           ", not the shared directory's group " +
                                           std::to_string(dir_gid) + "; run `chgrp " +
                                           std::to_string(dir_gid) + " " + path +
                                           "` or `chmod g-w " + path + "`");
  return {};
}

// Checks data.mdb and lock.mdb inside the directory when they exist.
Result<void> check_files(const Config& config, const DirInfo& info) {
  for (const char* name : {"data.mdb", "lock.mdb"}) {
    struct stat st {};
    if (::fstatat(info.fd(), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) continue;
      return fail(ErrorCode::io,
                  "cannot stat " + (info.path / name).string() + ": " + errno_text());
    }
    if (auto r = check_file(config, info.path, name, st, info.gid); !r) return r;
  }
  return {};
}

}  // namespace

DirFd::~DirFd() {
  if (fd >= 0) ::close(fd);
}

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
  const bool read_only = config.read_only || config.immutable;
  // Shared: setgid so that files created inside belong to the directory's group.
  const mode_t mode = config.shared ? 02770 : 0700;
  const int open_flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  int fd = ::open(info.path.c_str(), open_flags);
  if (fd < 0 && errno == ENOENT) {
    if (read_only) return info;  // nothing to read: the store misses everything
    std::error_code ec;
    if (info.path.has_parent_path())
      std::filesystem::create_directories(info.path.parent_path(), ec);
    const bool made = ::mkdir(info.path.c_str(), mode) == 0;
    if (!made && (errno == EACCES || errno == EROFS || errno == EPERM))
      return info;                 // cannot create it: an empty store that misses everything
    if (!made && errno != EEXIST)  // EEXIST: another process created it meanwhile
      return fail(ErrorCode::io,
                  "cannot create cache directory " + info.path.string() + ": " + errno_text());
    fd = ::open(info.path.c_str(), open_flags);
    // mkdir honours the umask; the mode must not. fchmod: never through a symlink.
    if (made && fd >= 0) (void)::fchmod(fd, mode);
  }
  if (fd < 0) {
    const int err = errno;
    struct stat link {};
    // O_DIRECTORY|O_NOFOLLOW on a symlink to a directory fails with ENOTDIR.
    if (err == ELOOP ||
        (err == ENOTDIR && ::lstat(info.path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)))
      return fail(ErrorCode::permission,
                  "cache directory " + info.path.string() +
                      " is a symbolic link; set dir (CCCL_CACHE_DIR) to the real directory");
    if (err == ENOTDIR)
      return fail(ErrorCode::invalid_argument,
                  "cache path " + info.path.string() + " is not a directory");
    return fail(err == EACCES ? ErrorCode::permission : ErrorCode::io,
                "cannot open cache directory " + info.path.string() + ": " + std::strerror(err));
  }
  info.handle = std::make_shared<const DirFd>(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return fail(ErrorCode::io,
                "cannot stat cache directory " + info.path.string() + ": " + errno_text());
  if (auto r = check_dir(config, info.path, st); !r) return tl::unexpected(r.error());
  info.dev = st.st_dev;
  info.ino = st.st_ino;
  info.gid = st.st_gid;
  if (auto r = check_files(config, info); !r) return tl::unexpected(r.error());
  struct statfs fs {};
  if (::fstatfs(fd, &fs) == 0)
    info.network_fs = network_filesystem_name(static_cast<long>(fs.f_type));
  // Other hosts' readers and writers do not see this host's locks: only an image that
  // nobody writes may be read there, and then without locks.
  if (info.network_fs && !config.immutable)
    return fail(ErrorCode::unsupported,
                "cache directory " + info.path.string() + " is on a network filesystem (" +
                    info.network_fs +
                    "): LMDB's locks and memory map are not coherent there and the cache "
                    "would corrupt. Use a local directory (e.g. under /tmp or /var/tmp), or set "
                    "immutable = true (CCCL_CACHE_IMMUTABLE=1) for a prewarmed image nobody "
                    "writes");
  struct statvfs vfs {};
  info.read_only_fs = ::fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0;
  info.exists = true;
  info.writable = !read_only && !info.read_only_fs && ::faccessat(fd, ".", W_OK, 0) == 0;
  struct stat data {};
  info.has_data = ::fstatat(fd, "data.mdb", &data, AT_SYMLINK_NOFOLLOW) == 0;
  return info;
}

Result<std::shared_ptr<const DirFd>> open_subdir(const Config& config, const DirInfo& dir,
                                                 const char* name) {
  const auto path = (dir.path / name).string();
  const mode_t mode = config.shared ? 02770 : 0700;
  const bool made = ::mkdirat(dir.fd(), name, mode) == 0;
  if (!made && errno != EEXIST)
    return fail(errno == EACCES ? ErrorCode::permission : ErrorCode::io,
                "cannot create " + path + ": " + errno_text());
  const int fd = ::openat(dir.fd(), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return fail(errno == ELOOP || errno == ENOTDIR ? ErrorCode::permission : ErrorCode::io,
                "cannot open " + path + " (" + errno_text() +
                    "); it must be a directory, not a symbolic link: remove it");
  auto handle = std::make_shared<const DirFd>(fd);
  if (made) (void)::fchmod(fd, mode);  // mkdir honours the umask; the mode must not
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(ErrorCode::io, "cannot stat " + path + ": " + errno_text());
  if (st.st_mode & S_IWOTH)
    return fail(ErrorCode::permission, path + " is writable by every user (mode " +
                                           octal(st.st_mode) + "); remove it");
  if (!config.shared) {
    if (st.st_uid != ::geteuid() || (st.st_mode & S_IWGRP))
      return fail(ErrorCode::permission, path + " is owned by uid " + std::to_string(st.st_uid) +
                                             " with mode " + octal(st.st_mode) +
                                             ": it must be yours and not group-writable; remove it");
    return handle;
  }
  if (!uid_in_group(st.st_uid, dir.gid) || st.st_gid != dir.gid)
    return fail(ErrorCode::permission,
                path + " (uid " + std::to_string(st.st_uid) + ", group " +
                    std::to_string(st.st_gid) + ") must belong to a member of the shared " +
                    "directory's group " + std::to_string(dir.gid) + " and to that group; remove it");
  return handle;
}

Result<void> check_opened(const Config& config, const DirInfo& dir, int data_fd) {
  struct stat opened {};
  struct stat listed {};
  struct stat now {};
  const auto data = (dir.path / "data.mdb").string();
  if (::fstat(data_fd, &opened) != 0)
    return fail(ErrorCode::io, "cannot stat the opened " + data + ": " + errno_text());
  if (::fstatat(dir.fd(), "data.mdb", &listed, AT_SYMLINK_NOFOLLOW) != 0)
    return fail(ErrorCode::permission, data + " vanished while it was opened: " + errno_text());
  if (opened.st_dev != listed.st_dev || opened.st_ino != listed.st_ino)
    return fail(ErrorCode::permission,
                "the data file LMDB opened is not " + data +
                    " (a symbolic link or a file swapped in while opening); refusing the store");
  if (::stat(dir.path.c_str(), &now) != 0 || now.st_dev != dir.dev || now.st_ino != dir.ino)
    return fail(ErrorCode::permission, "cache directory " + dir.path.string() +
                                           " was replaced while the store was opened");
  if (auto r = check_file(config, dir.path, "data.mdb", opened, dir.gid); !r) return r;
  return check_files(config, dir);  // lock.mdb, created by the open
}

}  // namespace cccl_cache::detail
