// Faults injected into a real LMDB store: a read-only filesystem, an unwritable lock
// file, a damaged lock file, a full reader table, a reader killed while holding a snapshot, a map at its
// ceiling. Each gives a clear error or the documented degradation, loses no committed
// entry and lets no file grow without bound. (A full disk: test_store_resilience.cpp.)
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

constexpr uid_t kNobody = 65534;

void populate(const Config& cfg, int n, std::size_t size = 0) {
  auto store = Store::open(cfg);
  ASSERT_TRUE(store) << store.error().describe();
  for (int i = 0; i < n; ++i)
    ASSERT_TRUE((*store)->put(make_key(i), make_meta(i), make_payload(i, size)));
}

// Every one of keys [0, n) holds make_payload(i, size).
bool all_intact(const Config& cfg, int n, std::size_t size = 0) {
  auto store = Store::open(cfg);
  if (!store) return false;
  for (int i = 0; i < n; ++i) {
    auto got = (*store)->peek(make_key(i));
    if (!got || !got->has_value() || (*got)->payload != make_payload(i, size)) return false;
  }
  return true;
}

// Whether `p` lies in a mapping of a file named data.mdb in this process.
bool inside_data_mdb_map(const void* p) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  while (std::getline(maps, line)) {
    if (line.find("/data.mdb") == std::string::npos) continue;
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream in(line);
    in >> std::hex >> lo >> dash >> hi;
    if (addr >= lo && addr < hi) return true;
  }
  return false;
}

// A child holding a read transaction (inside for_each) until it is killed.
struct Holder {
  pid_t pid = -1;
  bool ok = false;
  explicit Holder(const Config& cfg) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid = ::fork();
    if (pid == 0) {
      auto s = Store::open(cfg);
      if (s)
        (void)(*s)->for_each([&](const CacheKey&, const EntryMeta&) {
          char one = 1;
          (void)!::write(fds[1], &one, 1);
          ::pause();
          return false;
        });
      ::_exit(2);
    }
    ::close(fds[1]);
    char one = 0;
    ok = ::read(fds[0], &one, 1) == 1;
    ::close(fds[0]);
  }
  void kill() {
    if (pid <= 0) return;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    pid = -1;
  }
  ~Holder() { kill(); }
};

// Readers keep pointers into the map only under LMDB's locks. A store on a read-only
// filesystem (a read-only bind mount of a writable one here) cannot be locked: the
// open fails with a clear error unless it is declared an immutable image, which is
// then read from verified private copies.
TEST(StoreFaults, ReadOnlyFilesystemNeedsADeclaredImmutableImage) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to bind-mount read-only";
  test::TempDir dir;
  const auto cfg = test::test_config(dir / "cache");
  populate(cfg, 5);
  {  // positive control for the map check below: a locked store hands out map views
    auto store = *Store::open(cfg);
    bool in_map = false;
    ASSERT_TRUE(store->get_with(make_key(1), [&](const EntryMeta&, auto payload) {
      in_map = inside_data_mdb_map(payload.data());
    }));
    ASSERT_TRUE(in_map);
  }
  const auto mnt = dir / "ro";
  std::filesystem::create_directory(mnt);
  const auto [rc, msg] = test::run_child_reporting([&](int fd) {
    if (::unshare(CLONE_NEWNS) != 0) return 77;
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 77;
    if (::mount((dir / "cache").c_str(), mnt.c_str(), nullptr, MS_BIND, nullptr) != 0) return 77;
    if (::mount(nullptr, mnt.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0)
      return 77;
    auto ro = test::test_config(mnt);
    auto refused = Store::open(ro);
    if (refused) return 1;  // LMDB would have read it without locks, silently
    const std::string text = refused.error().describe();
    (void)!::write(fd, text.data(), text.size());
    if (refused.error().code != ErrorCode::permission) return 2;
    ro.immutable = true;
    auto store = Store::open(ro);
    if (!store || !(*store)->read_only()) return 3;
    for (int i = 0; i < 5; ++i) {
      bool in_map = true;
      std::vector<std::byte> seen;
      auto hit = (*store)->get_with(make_key(i), [&](const EntryMeta&, auto payload) {
        in_map = inside_data_mdb_map(payload.data());
        seen.assign(payload.begin(), payload.end());
      });
      if (!hit || !*hit || seen != make_payload(i)) return 4;
      if (in_map) return 5;  // a view of bytes that could change under the check
    }
    auto put = (*store)->put(make_key(9), make_meta(9), make_payload(9));
    return !put && put.error().code == ErrorCode::read_only ? 0 : 6;
  });
  if (rc == 77) GTEST_SKIP() << "cannot bind-mount here";
  EXPECT_EQ(rc, 0) << msg;
  EXPECT_NE(msg.find("read-only filesystem"), std::string::npos) << msg;
  EXPECT_NE(msg.find("immutable = true"), std::string::npos) << msg;
  EXPECT_TRUE(all_intact(cfg, 5));
}

// lock.mdb not writable by the user: a writable open and a read-only open both fail
// with a clear error (the latter names the immutable opt-in); nothing is lost.
TEST(StoreFaults, UnwritableLockFileIsAClearError) {
  test::TempDir dir;
  if (::geteuid() == 0) ::chmod(dir.path().c_str(), 0755);
  const auto cache = dir / "cache";
  const auto cfg = test::test_config(cache);
  populate(cfg, 5);
  if (::geteuid() == 0) {
    for (auto p : {cache, cache / "data.mdb", cache / "lock.mdb"})
      ASSERT_EQ(::chown(p.c_str(), kNobody, kNobody), 0);
  }
  ASSERT_EQ(::chmod((cache / "lock.mdb").c_str(), 0400), 0);
  const auto [rc, msg] = test::run_child_reporting([&](int fd) {
    if (::geteuid() == 0 && (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) return 10;
    if (::access((cache / "lock.mdb").c_str(), W_OK) == 0) return 11;  // would prove nothing
    std::string msgs;
    auto c = cfg;
    auto rw = Store::open(c);
    if (rw) return 1;
    msgs += rw.error().describe() + "\n";
    if (rw.error().code != ErrorCode::permission) return 2;
    c.read_only = true;
    auto ro = Store::open(c);
    if (ro) return 3;
    msgs += ro.error().describe() + "\n";
    if (ro.error().code != ErrorCode::permission) return 4;
    c.immutable = true;  // declared: read without locking
    auto image = Store::open(c);
    if (!image) return 5;
    for (int i = 0; i < 5; ++i) {
      auto got = (*image)->get(make_key(i));
      if (!got || !got->has_value() || (*got)->payload != make_payload(i)) return 6;
    }
    (void)!::write(fd, msgs.data(), msgs.size());
    return 0;
  });
  EXPECT_EQ(rc, 0) << msg;
  EXPECT_NE(msg.find("lock.mdb"), std::string::npos) << msg;
  EXPECT_NE(msg.find("immutable = true"), std::string::npos) << msg;
  ASSERT_EQ(::chmod((cache / "lock.mdb").c_str(), 0600), 0);
  if (::geteuid() == 0) {
    for (auto p : {cache, cache / "data.mdb", cache / "lock.mdb"})
      ASSERT_EQ(::chown(p.c_str(), 0, 0), 0);
  }
  EXPECT_TRUE(all_intact(cfg, 5));
}

// lock.mdb damaged (garbage, truncated, emptied) while no process has the store open:
// LMDB rebuilds its lock table when it is the only user, so a new process opens the
// store, finds every entry intact and writes again. (Damage to a lock file in use by
// live processes is outside what a file check can see: it is shared memory.)
TEST(StoreFaults, DamagedLockFileOfAClosedStoreIsRebuilt) {
  for (const char* how : {"garbage", "truncated", "empty"}) {
    SCOPED_TRACE(how);
    test::TempDir dir;
    const auto cfg = test::test_config(dir / "cache");
    populate(cfg, 5);
    const auto lock = (dir / "cache" / "lock.mdb").string();
    if (std::string(how) == "garbage") {
      std::vector<char> junk(8192);
      for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>(i * 131 + 7);
      std::FILE* f = std::fopen(lock.c_str(), "r+b");
      ASSERT_NE(f, nullptr);
      ASSERT_EQ(std::fwrite(junk.data(), 1, junk.size(), f), junk.size());
      std::fclose(f);
    } else {
      ASSERT_EQ(::truncate(lock.c_str(), std::string(how) == "empty" ? 0 : 100), 0);
    }
    const auto [rc, msg] = test::run_child_reporting([&](int) {
      auto store = Store::open(cfg);
      if (!store) return 1;
      for (int i = 0; i < 5; ++i) {
        auto got = (*store)->get(make_key(i));
        if (!got || !got->has_value() || (*got)->payload != make_payload(i)) return 2;
      }
      return (*store)->put(make_key(9), make_meta(9), make_payload(9)) ? 0 : 3;
    });
    EXPECT_EQ(rc, 0) << msg;
    EXPECT_TRUE(all_intact(cfg, 5));
  }
}

// Every reader slot held by live processes: a read fails with an error naming
// max_readers (after retrying); once the holders are killed their slots are cleared
// and reads work again.
TEST(StoreFaults, FullReaderTableIsAClearErrorUntilReadersDie) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.max_readers = 3;  // fixed by the first opener
  populate(cfg, 4);
  std::vector<std::unique_ptr<Holder>> holders;
  for (int i = 0; i < 3; ++i) {
    holders.push_back(std::make_unique<Holder>(cfg));
    ASSERT_TRUE(holders.back()->ok) << "holder " << i << " got no reader slot";
  }
  const auto [rc, msg] = test::run_child_reporting([&](int fd) {
    auto store = Store::open(cfg);  // needs no reader slot
    if (!store) return 1;
    auto got = (*store)->get(make_key(0));
    if (got) return 2;
    const std::string text = got.error().describe();
    (void)!::write(fd, text.data(), text.size());
    return 0;
  });
  EXPECT_EQ(rc, 0) << msg;
  EXPECT_NE(msg.find("max_readers"), std::string::npos) << msg;
  for (auto& h : holders) h->kill();
  EXPECT_EQ(test::run_child([&] { return all_intact(cfg, 4) ? 0 : 1; }), 0);
}

// A reader SIGKILLed inside a read transaction pins its snapshot: without clearing its
// slot, every replaced page stays in use and the file grows towards max_map_size. A
// writer replacing entries clears it (before growing the map, and periodically): the
// file stays bounded and every put succeeds.
TEST(StoreFaults, KilledReaderHoldingASnapshotDoesNotGrowTheFile) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;
  auto store = *Store::open(cfg);
  for (int k = 0; k < 8; ++k)
    ASSERT_TRUE(store->put(make_key(k), make_meta(k), make_payload(k, 20'000)));
  {
    Holder reader(cfg);
    ASSERT_TRUE(reader.ok);
    reader.kill();  // its slot and snapshot stay in the reader table
  }
  constexpr int kRounds = 300;  // 6 MB written over 160 KB of live entries
  for (int i = 0; i < kRounds; ++i) {
    const int k = i % 8;
    auto r = store->put(make_key(k), make_meta(k), make_payload(1000 + i, 20'000));
    ASSERT_TRUE(r) << "put " << i << ": " << r.error().describe();
  }
  const auto file = std::filesystem::file_size(dir / "data.mdb");
  EXPECT_LE(file, 4ull << 20) << "data.mdb grew to " << file << " bytes";
  EXPECT_LE(store->stats()->map_size, 4ull << 20);
  for (int i = kRounds - 8; i < kRounds; ++i)  // each key's last version
    EXPECT_EQ((*store->get(make_key(i % 8)))->payload, make_payload(1000 + i, 20'000));
}

// Payloads just over a page size waste half their pages, so live bytes within the
// budget (max_size = max_map_size / 2) can still fill the map: puts then evict least
// recently used entries instead of failing, and the map stays at its ceiling.
TEST(StoreFaults, MapCeilingUnderBudgetEvictsByLruInsteadOfWedging) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;
  cfg.max_map_size = 2ull << 20;
  cfg.max_size = 1ull << 20;
  auto store = *Store::open(cfg);
  constexpr int kPuts = 400;  // 1.6 MB of payload in 3.2 MB of pages
  for (int i = 0; i < kPuts; ++i) {
    auto r = store->put(make_key(i), make_meta(i), make_payload(i, 4'100));
    ASSERT_TRUE(r) << "put " << i << ": " << r.error().describe();
  }
  auto s = *store->stats();
  EXPECT_GT(s.evictions, 0u);
  EXPECT_LE(s.live_bytes, cfg.max_size);
  EXPECT_LE(s.map_size, cfg.max_map_size);
  EXPECT_LE(std::filesystem::file_size(dir / "data.mdb"), cfg.max_map_size);
  EXPECT_EQ(s.entries + s.evictions, std::uint64_t(kPuts));  // every absence was counted
  for (int i = kPuts - 50; i < kPuts; ++i) {                 // the most recent entries survive
    auto got = store->get(make_key(i));
    ASSERT_TRUE(got && got->has_value()) << i;
    EXPECT_EQ((*got)->payload, make_payload(i, 4'100));
  }
  // An entry that can never fit evicts nothing.
  auto huge = store->put(make_key(9999), make_meta(9999), make_payload(9999, 3ull << 20));
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().code, ErrorCode::storage_full);
  EXPECT_EQ(store->stats()->evictions, s.evictions);
  EXPECT_EQ(store->stats()->entries, s.entries);
}

// A live reader holding an old snapshot while the map is at its ceiling: puts fail
// with storage_full naming the reader (evicting would free nothing), evict nothing,
// harm nothing; once it ends, puts succeed again.
TEST(StoreFaults, LiveReaderPinningTheMapIsStorageFullAndHarmless) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;
  cfg.max_map_size = 2ull << 20;
  cfg.max_size = 1ull << 20;
  auto store = *Store::open(cfg);
  std::vector<int> version(5);
  for (int k = 0; k < 5; ++k) {
    version[k] = k;
    ASSERT_TRUE(store->put(make_key(k), make_meta(k), make_payload(k, 100'000)));
  }
  Holder reader(cfg);
  ASSERT_TRUE(reader.ok);
  Result<void> r;
  int i = 0;
  for (; i < 100; ++i) {
    const int k = i % 5;
    r = store->put(make_key(k), make_meta(k), make_payload(100 + i, 100'000));
    if (!r) break;
    version[k] = 100 + i;
  }
  ASSERT_FALSE(r) << "the pinned map never filled";
  EXPECT_EQ(r.error().code, ErrorCode::storage_full);
  EXPECT_NE(r.error().message.find("pid " + std::to_string(reader.pid)), std::string::npos)
      << r.error().message;
  EXPECT_EQ(store->stats()->evictions, 0u);
  for (int k = 0; k < 5; ++k)
    EXPECT_EQ((*store->get(make_key(k)))->payload, make_payload(version[k], 100'000));
  reader.kill();
  // A delete in the full map (it needs pages too) once the reader is gone: it succeeds.
  auto removed = store->remove(make_key(1));
  ASSERT_TRUE(removed) << removed.error().describe();
  EXPECT_TRUE(*removed);
  EXPECT_FALSE(store->get(make_key(1))->has_value());
  auto again = store->put(make_key(0), make_meta(0), make_payload(7, 100'000));
  EXPECT_TRUE(again) << again.error().describe();
}

}  // namespace
}  // namespace cccl_cache
