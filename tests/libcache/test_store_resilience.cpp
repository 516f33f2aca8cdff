// Stale reader slots left by killed processes, and a full disk.
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>

#include <thread>

#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

// Children take every free reader slot (a read txn held inside for_each) and are
// SIGKILLed. A new read in this process finds the table full, clears the dead slots
// (mdb_reader_check) and succeeds.
TEST(StoreResilience, StaleReaderSlotsOfKilledProcessesAreCleared) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.max_readers = 3;  // fixed by the first opener
  auto store = *Store::open(cfg);
  ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1)));
  ASSERT_TRUE(store->get(make_key(1))->has_value());  // this process's pooled slot
  std::vector<pid_t> pids;
  for (int c = 0; c < 2; ++c) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    if (pid == 0) {
      auto s = Store::open(cfg);
      if (!s) ::_exit(1);
      (void)(*s)->for_each([&](const CacheKey&, const EntryMeta&) {
        char ok = 1;
        (void)!::write(fds[1], &ok, 1);
        ::pause();  // hold the read txn (and its slot) until killed
        return false;
      });
      ::_exit(2);
    }
    ::close(fds[1]);
    char ok = 0;
    ASSERT_EQ(::read(fds[0], &ok, 1), 1) << "child could not take a reader slot";
    ::close(fds[0]);
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  // Hold this process's pooled slot in one thread; a second concurrent read needs a
  // new slot, and the only free ones are the dead children's.
  std::atomic<int> phase{0};
  std::thread holder([&] {
    (void)store->for_each([&](const CacheKey&, const EntryMeta&) {
      phase = 1;
      while (phase != 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return false;
    });
  });
  while (phase != 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto got = store->get(make_key(1));
  phase = 2;
  holder.join();
  ASSERT_TRUE(got) << got.error().describe();
  EXPECT_TRUE(got->has_value());
}

// On a 1 MiB tmpfs (mounted in a private mount namespace of a child, root only) puts
// fail with storage_full once the disk is full, and everything stored stays intact.
TEST(StoreResilience, FullDiskIsStorageFullAndHarmless) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs";
  test::TempDir dir;
  const auto mnt = dir / "mnt";
  std::filesystem::create_directory(mnt);
  int rc = test::run_child([&] {
    if (::unshare(CLONE_NEWNS) != 0) return 77;
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 77;
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=1m,mode=0700") != 0) return 77;
    auto cfg = test::test_config(mnt / "cache");
    cfg.initial_map_size = 16ull << 20;  // the map is larger than the disk
    std::uint64_t stored = 0;
    {
      auto store = Store::open(cfg);
      if (!store) return 1;
      Result<void> r;
      for (; stored < 100; ++stored) {
        r = (*store)->put(make_key(stored), make_meta(stored), make_payload(stored, 50'000));
        if (!r) break;
      }
      if (r) return 2;  // the disk never filled
      if (r.error().code != ErrorCode::storage_full) {
        std::fprintf(stderr, "put failed with %s\n", r.error().describe().c_str());
        return 3;  // wrong error
      }
      if (stored < 3) return 4;
      for (std::uint64_t i = 0; i < stored; ++i) {
        auto got = (*store)->get(make_key(i));
        if (!got || !got->has_value() || (*got)->payload != make_payload(i, 50'000)) return 5;
      }
    }
    auto again = Store::open(cfg);  // and after reopening
    if (!again) return 6;
    for (std::uint64_t i = 0; i < stored; ++i) {
      auto got = (*again)->peek(make_key(i));
      if (!got || !got->has_value() || (*got)->payload != make_payload(i, 50'000)) return 7;
    }
    return (*again)->stats()->entries == stored ? 0 : 8;
  });
  if (rc == 77) GTEST_SKIP() << "cannot mount a tmpfs here";
  EXPECT_EQ(rc, 0);
}

}  // namespace
}  // namespace cccl_cache
