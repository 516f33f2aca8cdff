// Directory safety (owner-only creation, foreign and writable-by-others refusal)
// and read-only opens that write nothing.
#include <fcntl.h>
#include <grp.h>
#include <spdlog/sinks/ostream_sink.h>
#include <sys/stat.h>

#include <fstream>

#include "cccl_cache/cache/log.hpp"
#include "dir_safety.hpp"
#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

constexpr uid_t kNobody = 65534;

mode_t mode_of(const std::filesystem::path& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_mode & 07777;
}

void populate(const std::filesystem::path& dir, int n) {
  auto store = *Store::open(test::test_config(dir));
  for (int i = 0; i < n; ++i) ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i)));
}

TEST(StoreSafety, CreatesDirectoryOwnerOnlyWhateverTheUmask) {
  test::TempDir dir;
  const mode_t old = ::umask(0);
  auto store = Store::open(test::test_config(dir / "a/b/cache"));
  auto cfg = test::test_config(dir / "shared");
  cfg.shared = true;
  auto shared = Store::open(cfg);
  ::umask(old);
  ASSERT_TRUE(store) << store.error().describe();
  ASSERT_TRUE(shared) << shared.error().describe();
  EXPECT_EQ(mode_of(dir / "a/b/cache"), 0700u);
  EXPECT_EQ(mode_of(dir / "shared"), 02770u);
  EXPECT_EQ(mode_of(dir / "a/b/cache/data.mdb") & 0077u, 0u);
}

TEST(StoreSafety, WorldWritableDirectoryIsRefusedEvenWhenSharedOrSticky) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "c");
  for (mode_t mode : {0777u, 01777u, 03777u}) {
    ::chmod((dir / "c").c_str(), mode);
    for (bool shared : {false, true}) {
      SCOPED_TRACE(std::to_string(mode) + (shared ? " shared" : ""));
      auto cfg = test::test_config(dir / "c");
      cfg.shared = shared;
      auto r = Store::open(cfg);
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().code, ErrorCode::permission);
      EXPECT_NE(r.error().message.find("chmod o-w"), std::string::npos) << r.error().message;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "c/data.mdb"));
}

TEST(StoreSafety, GroupWritableDirectoryNeedsShared) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "c");
  ::chmod((dir / "c").c_str(), 0770);
  auto cfg = test::test_config(dir / "c");
  auto r = Store::open(cfg);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::permission);
  EXPECT_NE(r.error().message.find("shared"), std::string::npos);
  cfg.shared = true;
  EXPECT_TRUE(Store::open(cfg));
}

TEST(StoreSafety, ForeignOwnedDirectoryIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown a directory to another user";
  test::TempDir dir;
  std::filesystem::create_directory(dir / "c");
  ASSERT_EQ(::chown((dir / "c").c_str(), kNobody, kNobody), 0);
  ::chmod((dir / "c").c_str(), 0700);
  auto cfg = test::test_config(dir / "c");
  auto r = Store::open(cfg);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::permission);
  EXPECT_NE(r.error().message.find("owned by uid 65534"), std::string::npos) << r.error().message;
  EXPECT_FALSE(std::filesystem::exists(dir / "c/data.mdb"));
  // Shared mode trusts only directories owned by the user or root: another user could
  // otherwise plant an entry under the real key of a common spec.
  ::chmod((dir / "c").c_str(), 02770);
  cfg.shared = true;
  r = Store::open(cfg);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::permission);
  EXPECT_NE(r.error().message.find("owned by uid 65534"), std::string::npos) << r.error().message;
  EXPECT_FALSE(std::filesystem::exists(dir / "c/data.mdb"));
}

// Shared mode, seen by an unprivileged user (uid 65534, groups 65534 and 4242) in a
// child: which directories and files it trusts.
TEST(StoreSafety, SharedModeTrustsOwnOrRootDirectoriesOfOwnGroupsOnly) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to create files owned by other users";
  constexpr gid_t kMine = 4242, kOther = 4343;
  constexpr uid_t kStranger = 65533;  // no passwd entry: a member of no group
  struct Case {
    const char* name;
    uid_t dir_uid;
    gid_t dir_gid;
    mode_t dir_mode;
    int data_uid;  // -1: no data.mdb
    gid_t data_gid;
    mode_t data_mode;
    const char* refusal;  // null: accepted
  };
  const Case cases[] = {
      {"root's dir of my group", 0, kMine, 02770, -1, 0, 0, nullptr},
      {"my dir of my group", kNobody, kMine, 02770, -1, 0, 0, nullptr},
      {"my dir of my primary group", kNobody, kNobody, 02770, -1, 0, 0, nullptr},
      {"a stranger's dir", kStranger, kMine, 02770, -1, 0, 0, "owned by uid 65533"},
      {"root's dir of another group", 0, kOther, 02775, -1, 0, 0, "group 4343"},
      {"sticky world-writable", 0, kMine, 03777, -1, 0, 0, "every user"},
      {"data.mdb of a stranger", 0, kMine, 02770, int(kStranger), kMine, 0640, "not a member"},
      {"data.mdb writable by another group", 0, kMine, 02770, int(kNobody), kOther, 0660,
       "writable by group 4343"},
      {"data.mdb world-writable", 0, kMine, 02770, int(kNobody), kMine, 0666, "every user"},
  };
  test::TempDir dir;
  ::chmod(dir.path().c_str(), 0755);  // let the unprivileged child reach the caches
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto cache = dir / ("c" + std::to_string(n++));
    std::filesystem::create_directory(cache);
    if (c.data_uid >= 0) {
      std::ofstream(cache / "data.mdb") << "x";
      ASSERT_EQ(::chown((cache / "data.mdb").c_str(), uid_t(c.data_uid), c.data_gid), 0);
      ASSERT_EQ(::chmod((cache / "data.mdb").c_str(), c.data_mode), 0);
    }
    ASSERT_EQ(::chown(cache.c_str(), c.dir_uid, c.dir_gid), 0);
    ASSERT_EQ(::chmod(cache.c_str(), c.dir_mode), 0);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    int rc = test::run_child([&] {
      const gid_t groups[] = {kMine};
      if (::setgroups(1, groups) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)
        return 10;
      auto cfg = test::test_config(cache);
      cfg.shared = true;
      auto store = Store::open(cfg);
      std::string msg = store ? "" : store.error().describe();
      (void)!::write(fds[1], msg.data(), msg.size());
      if (!store) return store.error().code == ErrorCode::permission ? 1 : 2;
      return (*store)->put(make_key(1), make_meta(1), make_payload(1)) ? 0 : 3;
    });
    ::close(fds[1]);
    std::string msg(4096, '\0');
    msg.resize(std::max<ssize_t>(0, ::read(fds[0], msg.data(), msg.size())));
    ::close(fds[0]);
    if (!c.refusal) {
      EXPECT_EQ(rc, 0) << msg;
    } else {
      EXPECT_EQ(rc, 1) << msg;
      EXPECT_NE(msg.find(c.refusal), std::string::npos) << msg;
    }
  }
}

// Outside shared mode the store's files must be regular files of this user that
// nobody else may write; a symlinked directory is refused too.
TEST(StoreSafety, StoreFilesMustBeOwnRegularAndPrivate) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to create files owned by other users";
  struct Case {
    const char* name;
    std::function<void(const std::filesystem::path&)> damage;
    const char* refusal;
  };
  test::TempDir outside;
  populate(outside / "victim", 1);
  const Case cases[] = {
      {"world-writable data.mdb", [](const auto& c) { ::chmod((c / "data.mdb").c_str(), 0666); },
       "every user"},
      {"group-writable data.mdb", [](const auto& c) { ::chmod((c / "data.mdb").c_str(), 0620); },
       "group-writable"},
      {"world-writable lock.mdb", [](const auto& c) { ::chmod((c / "lock.mdb").c_str(), 0666); },
       "every user"},
      {"foreign data.mdb",
       [](const auto& c) { (void)!::chown((c / "data.mdb").c_str(), kNobody, kNobody); },
       "owned by uid 65534"},
      {"symlinked data.mdb",
       [&](const auto& c) {
         std::filesystem::remove(c / "data.mdb");
         std::filesystem::create_symlink(outside / "victim/data.mdb", c / "data.mdb");
       },
       "symbolic link"},
      {"symlinked lock.mdb",
       [&](const auto& c) {
         std::filesystem::remove(c / "lock.mdb");
         std::filesystem::create_symlink(outside / "victim/lock.mdb", c / "lock.mdb");
       },
       "symbolic link"},
      {"symlinked directory",
       [&](const auto& c) {
         std::filesystem::remove_all(c);
         std::filesystem::create_directory_symlink(outside / "victim", c);
       },
       "symbolic link"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    test::TempDir dir;
    populate(dir / "c", 2);
    c.damage(dir / "c");
    for (bool read_only : {false, true}) {
      auto cfg = test::test_config(dir / "c");
      cfg.read_only = read_only;
      auto r = Store::open(cfg);
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().code, ErrorCode::permission);
      EXPECT_NE(r.error().message.find(c.refusal), std::string::npos) << r.error().message;
    }
  }
}

// After LMDB opened the directory by path, the data file it holds must be the
// data.mdb of the directory vetted (and opened) before.
TEST(StoreSafety, OpenedDataFileMustBeTheVettedOne) {
  test::TempDir dir;
  populate(dir / "c", 1);
  populate(dir / "other", 1);
  const auto cfg = test::test_config(dir / "c");
  auto info = detail::prepare_dir(cfg);
  ASSERT_TRUE(info) << info.error().describe();
  for (auto [file, ok] : {std::pair{dir / "c/data.mdb", true}, {dir / "other/data.mdb", false}}) {
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    auto r = detail::check_opened(cfg, *info, fd);
    ::close(fd);
    EXPECT_EQ(bool(r), ok) << file;
    if (!ok) {
      EXPECT_EQ(r.error().code, ErrorCode::permission);
      EXPECT_NE(r.error().message.find("not"), std::string::npos);
    }
  }
  // The directory's name now leads elsewhere: refused as well.
  std::filesystem::rename(dir / "c", dir / "moved");
  std::filesystem::rename(dir / "other", dir / "c");
  int fd = ::open((dir / "c/data.mdb").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_FALSE(detail::check_opened(cfg, *info, fd));
  ::close(fd);
}

// Opens the store in a child as an unprivileged user (when root) so that the
// directory's permission bits really apply, then checks reads work and writes fail.
// Two cases: lock.mdb writable (read-only with locking) and not: then the open fails
// with a clear error unless the store is declared an immutable image (no locking).
TEST(StoreSafety, ReadOnlyDirectoryOpensReadOnlyAndWritesNothing) {
  test::TempDir dir;
  if (::geteuid() == 0)
    ::chmod(dir.path().c_str(), 0755);  // let the unprivileged child reach the caches
  for (bool lock_writable : {false, true}) {
    SCOPED_TRACE(lock_writable ? "lock.mdb writable" : "lock.mdb read-only");
    const auto cache = dir / (lock_writable ? "with-lock" : "no-lock");
    populate(cache, 5);
    if (::geteuid() == 0) {
      for (auto p : {cache, cache / "data.mdb", cache / "lock.mdb"})
        ASSERT_EQ(::chown(p.c_str(), kNobody, kNobody), 0);
    }
    ::chmod((cache / "data.mdb").c_str(), 0444);
    ::chmod((cache / "lock.mdb").c_str(), lock_writable ? 0644 : 0444);
    ::chmod(cache.c_str(), 0555);
    const auto data_time = std::filesystem::last_write_time(cache / "data.mdb");
    int rc = test::run_child([&] {
      if (::geteuid() == 0 && (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) return 10;
      if (::access(cache.c_str(), W_OK) == 0) return 11;  // the test would prove nothing
      if ((::access((cache / "lock.mdb").c_str(), W_OK) == 0) != lock_writable) return 19;
      std::ostringstream log;
      auto capture = std::make_shared<spdlog::logger>(
          "t", std::make_shared<spdlog::sinks::ostream_sink_mt>(log));
      capture->set_level(spdlog::level::info);
      set_logger(capture);
      auto cfg = test::test_config(cache);
      if (!lock_writable) {
        auto refused = Store::open(cfg);
        if (refused || refused.error().code != ErrorCode::permission ||
            refused.error().message.find("immutable = true") == std::string::npos)
          return 21;  // a lockless read of a store others may write must be declared
        cfg.immutable = true;
      }
      auto store = Store::open(cfg);
      if (!store) return 12;
      if (!(*store)->read_only()) return 13;
      const bool nolock = log.str().find("without locking") != std::string::npos;
      if (nolock == lock_writable) return 20;  // the intended LMDB mode was not used
      for (int i = 0; i < 5; ++i) {
        auto got = (*store)->get(make_key(i));
        if (!got || !got->has_value() || (*got)->payload != make_payload(i)) return 14;
      }
      if (!(*store)->get(make_key(99)) || (*store)->get(make_key(99))->has_value()) return 15;
      auto put = (*store)->put(make_key(50), make_meta(50), make_payload(50));
      if (put || put.error().code != ErrorCode::read_only) return 16;
      auto s = (*store)->stats();
      if (!s || s->entries != 5 || s->hits != 5) return 17;
      if (!(*store)->flush()) return 18;  // nothing to write: fine
      return 0;
    });
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(std::filesystem::last_write_time(cache / "data.mdb"), data_time);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(cache), {}), 2);
  }
}

TEST(StoreSafety, ReadOnlyConfigOnWritableDirectoryWritesNothing) {
  test::TempDir dir;
  populate(dir.path(), 3);
  const auto data_time = std::filesystem::last_write_time(dir / "data.mdb");
  auto cfg = test::test_config(dir.path());
  cfg.read_only = true;
  {
    auto store = *Store::open(cfg);
    EXPECT_TRUE(store->read_only());
    EXPECT_TRUE(store->get(make_key(1))->has_value());
    EXPECT_EQ(store->put(make_key(9), make_meta(9), make_payload(9)).error().code,
              ErrorCode::read_only);
    EXPECT_EQ(store->remove(make_key(1)).error().code, ErrorCode::read_only);
    EXPECT_EQ(store->clear().error().code, ErrorCode::read_only);
  }  // destruction flushes nothing
  EXPECT_EQ(std::filesystem::last_write_time(dir / "data.mdb"), data_time);
}

TEST(StoreSafety, ReadOnlyOpenOfAbsentDirectoryMissesAndCreatesNothing) {
  test::TempDir dir;
  auto cfg = test::test_config(dir / "absent");
  cfg.read_only = true;
  auto store = Store::open(cfg);
  ASSERT_TRUE(store) << store.error().describe();
  EXPECT_FALSE((*store)->get(make_key(1))->has_value());
  EXPECT_FALSE(std::filesystem::exists(dir / "absent"));
}

TEST(StoreSafety, NetworkFilesystemsAreRecognised) {
  EXPECT_STREQ(detail::network_filesystem_name(0x6969), "NFS");
  EXPECT_STREQ(detail::network_filesystem_name(0x0bd00bd0), "Lustre");
  EXPECT_STREQ(detail::network_filesystem_name(0x47504653), "GPFS");
  EXPECT_EQ(detail::network_filesystem_name(0xef53), nullptr);      // ext4
  EXPECT_EQ(detail::network_filesystem_name(0x01021994), nullptr);  // tmpfs
}

}  // namespace
}  // namespace cccl_cache
