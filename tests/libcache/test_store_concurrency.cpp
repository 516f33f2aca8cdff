// Many processes and threads at once, writers killed mid-batch, and fork().
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <random>
#include <thread>

#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

// Reads every entry of `store` and checks it against its deterministic payload.
void expect_all_intact(Store& store, std::size_t payload_size, std::size_t* count = nullptr) {
  std::vector<CacheKey> keys;
  ASSERT_TRUE(store.for_each([&](const CacheKey& k, const EntryMeta&) {
    keys.push_back(k);
    return true;
  }));
  for (const auto& k : keys) {
    auto got = store.peek(k);
    ASSERT_TRUE(got) << got.error().describe();
    ASSERT_TRUE(got->has_value()) << "listed entry " << k.to_string() << " is unreadable";
    ASSERT_EQ((*got)->payload, make_payload(k.spec.low, payload_size)) << k.to_string();
  }
  if (count) *count = keys.size();
  EXPECT_EQ(store.stats()->corrupt, 0u);
}

TEST(StoreConcurrency, FourWriterProcessesAndReaderThreadsLoseNothing) {
  test::TempDir dir;
  constexpr int kWriters = 4, kPerWriter = 150;
  constexpr std::size_t kSize = 3000;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;  // growth under contention too
  auto store = *Store::open(cfg);
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = ::fork();
    if (pid == 0) {
      auto s = Store::open(cfg);
      if (!s) {
        std::fprintf(stderr, "writer open: %s\n", s.error().describe().c_str());
        ::_exit(1);
      }
      for (int i = 0; i < kPerWriter; ++i) {
        const std::uint64_t id = std::uint64_t(w) * 1000 + std::uint64_t(i);
        if (!(*s)->put(make_key(id), make_meta(id), make_payload(id, kSize))) ::_exit(2);
        // Every writer also rewrites a shared key with identical content.
        if (!(*s)->put(make_key(999'999), make_meta(999'999), make_payload(999'999, kSize)))
          ::_exit(3);
        if (!(*s)->get(make_key(id))->has_value()) ::_exit(4);
      }
      ::_exit(0);
    }
    pids.push_back(pid);
  }
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0}, hits{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t)
    readers.emplace_back([&, t] {
      std::mt19937 rng{unsigned(t)};
      while (!stop) {
        const std::uint64_t id = std::uint64_t(rng() % kWriters) * 1000 + rng() % kPerWriter;
        auto got = store->get(make_key(id));
        if (!got)
          ++bad;
        else if (got->has_value()) {
          ++hits;
          if ((*got)->payload != make_payload(id, kSize)) ++bad;
        }
      }
    });
  for (pid_t pid : pids) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer status " << status;
  }
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(bad, 0);
  EXPECT_GT(hits, 0);
  for (int w = 0; w < kWriters; ++w)
    for (int i = 0; i < kPerWriter; ++i) {
      const std::uint64_t id = std::uint64_t(w) * 1000 + std::uint64_t(i);
      auto got = store->get(make_key(id));
      ASSERT_TRUE(got && got->has_value()) << "lost entry " << id;
      ASSERT_EQ((*got)->payload, make_payload(id, kSize));
    }
  std::size_t n = 0;
  expect_all_intact(*store, kSize, &n);
  EXPECT_EQ(n, std::size_t(kWriters * kPerWriter + 1));
  EXPECT_EQ(store->stats()->live_bytes, n * kSize);
  EXPECT_EQ(store->stats()->puts, std::uint64_t(2 * kWriters * kPerWriter));
}

// A child puts entries and acknowledges each commit through a pipe; it is killed
// with SIGKILL at a random moment (usually in the middle of a put). Every
// acknowledged entry must be present and intact; every present entry intact.
TEST(StoreConcurrency, WriterKilledMidBatchLeavesCommittedEntriesIntact) {
  test::TempDir dir;
  constexpr std::size_t kSize = 40'000;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;
  auto store = *Store::open(cfg);
  std::mt19937 rng(12345);
  std::vector<std::uint64_t> acked;
  for (int round = 0; round < 60; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      auto s = Store::open(cfg);
      if (!s) {
        std::fprintf(stderr, "writer open: %s\n", s.error().describe().c_str());
        ::_exit(1);
      }
      for (std::uint64_t i = 0;; ++i) {
        const std::uint64_t id = std::uint64_t(round) * 100'000 + i;
        if (!(*s)->put(make_key(id), make_meta(id), make_payload(id, kSize))) ::_exit(2);
        if (::write(fds[1], &id, sizeof id) != sizeof id) ::_exit(3);
      }
    }
    ::close(fds[1]);
    const int wait_for = 1 + int(rng() % 12);
    std::uint64_t id = 0;
    for (int i = 0; i < wait_for && ::read(fds[0], &id, sizeof id) == sizeof id; ++i)
      acked.push_back(id);
    if (rng() % 2) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    while (::read(fds[0], &id, sizeof id) == sizeof id)
      acked.push_back(id);  // acks sent before death
    ::close(fds[0]);
    ASSERT_TRUE(WIFSIGNALED(status))
        << "child ended early, status " << status << " in round " << round;
    // The store is still writable after the writer died holding the write lock.
    ASSERT_TRUE(store->put(make_key(7'000'000 + std::uint64_t(round)), make_meta(0),
                           make_payload(7'000'000 + std::uint64_t(round), kSize)));
  }
  ASSERT_GE(acked.size(), 60u);
  for (std::uint64_t id : acked) {
    auto got = store->get(make_key(id));
    ASSERT_TRUE(got) << got.error().describe();
    ASSERT_TRUE(got->has_value()) << "acknowledged entry " << id << " is missing";
    ASSERT_EQ((*got)->payload, make_payload(id, kSize));
  }
  expect_all_intact(*store, kSize);
}

TEST(StoreConcurrency, ForkedChildReopensTransparently) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1)));
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(store->get(make_key(1))->has_value());  // pending in the parent
  int rc = test::run_child([&] {
    // The same Store object, inherited across fork().
    auto got = store->get(make_key(1));
    if (!got || !got->has_value() || (*got)->payload != make_payload(1)) return 1;
    if (!store->put(make_key(2), make_meta(2), make_payload(2))) return 2;
    if (!store->flush()) return 3;
    auto s = store->stats();
    // The child's own hit is persisted; the parent's 3 pending hits are not the child's.
    return s && s->hits == 1 ? 0 : 4;
  });
  ASSERT_EQ(rc, 0);
  auto got = store->get(make_key(2));
  ASSERT_TRUE(got && got->has_value());
  EXPECT_EQ((*got)->payload, make_payload(2));
  ASSERT_TRUE(store->flush());
  EXPECT_EQ(store->stats()->hits, 5u);  // 3 + 1 here, 1 from the child
  ASSERT_TRUE(store->put(make_key(3), make_meta(3), make_payload(3)));  // the parent still writes
}

TEST(StoreConcurrency, ManyThreadsShareOneStore) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (std::uint64_t i = 0; i < 50; ++i) {
        const std::uint64_t id = std::uint64_t(t) * 100 + i;
        if (!store->put(make_key(id), make_meta(id), make_payload(id))) ++bad;
        auto got = store->get(make_key(id));
        if (!got || !got->has_value() || (*got)->payload != make_payload(id)) ++bad;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(store->stats()->entries, 400u);
  EXPECT_EQ(store->stats()->hits, 400u);
}

}  // namespace
}  // namespace cccl_cache
