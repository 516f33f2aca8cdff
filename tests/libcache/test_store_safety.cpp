// Directory safety (owner-only creation, foreign and writable-by-others refusal)
// and read-only opens that write nothing.
#include <spdlog/sinks/ostream_sink.h>
#include <sys/stat.h>

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

TEST(StoreSafety, WorldWritableDirectoryIsRefusedEvenWhenShared) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "c");
  ::chmod((dir / "c").c_str(), 0777);
  for (bool shared : {false, true}) {
    auto cfg = test::test_config(dir / "c");
    cfg.shared = shared;
    auto r = Store::open(cfg);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::permission);
    EXPECT_NE(r.error().message.find("chmod o-w"), std::string::npos) << r.error().message;
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
  cfg.shared = true;  // a deliberate shared cache is accepted
  EXPECT_TRUE(Store::open(cfg));
}

// Opens the store in a child as an unprivileged user (when root) so that the
// directory's permission bits really apply, then checks reads work and writes fail.
// Two cases: lock.mdb writable (read-only with locking) and not (no locking: an
// immutable image).
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
      auto store = Store::open(test::test_config(cache));
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
