// The Redis remote tier against a real redis-server started by the test (skipped when
// the binary is absent): backfill, first writer wins, rejected values, read-only
// clients, passwords, batched lookups, and outages (killed, paused, restarted).
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <thread>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/log.hpp"
#include "cccl_cache/cache/redis_tier.hpp"
#include "cccl_cache/cache/tiers.hpp"
#include "redis_server.hpp"
#include "redis_test_util.hpp"
#include "test_util.hpp"

namespace cccl_cache {
namespace {

using namespace test;
using Clock = std::chrono::steady_clock;

TEST(RedisTier, PingAndRoundTrip) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  auto tier = open_remote(remote_config(server.url()));
  auto ping = tier->ping();
  ASSERT_TRUE(ping) << ping.error().describe();
  EXPECT_GT(ping->count(), 0);
  const auto payload = make_payload(1, 80 * 1024);
  EXPECT_EQ(*tier->put(make_key(1), make_meta(1), payload), true);
  std::vector<std::byte> got;
  EntryMeta meta;
  ASSERT_EQ(*tier->get_with(make_key(1), [&](const EntryMeta& m, std::span<const std::byte> p) {
    meta = m;
    got.assign(p.begin(), p.end());
  }), true);
  EXPECT_EQ(got, payload);
  EXPECT_EQ(meta.summary, make_meta(1).summary);
  EXPECT_EQ(meta.toolchain, make_meta(1).toolchain);
  EXPECT_EQ(*tier->get_with(make_key(2), [](const EntryMeta&, std::span<const std::byte>) {}), false);
  // Stored compressed under the versioned key.
  redisContext* c = server.connect();
  ASSERT_NE(c, nullptr);
  auto* r = static_cast<redisReply*>(
      redisCommand(c, "STRLEN %s", RedisTier::entry_key(make_key(1)).c_str()));
  ASSERT_NE(r, nullptr);
  EXPECT_GT(r->integer, 0);
  freeReplyObject(r);
  redisFree(c);
  EXPECT_NE(RedisTier::entry_key(make_key(1)).find(":e" + std::to_string(kEnvelopeVersion) + ":"),
            std::string::npos);
  EXPECT_EQ(*tier->remove(make_key(1)), true);
  auto s = tier->stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.puts, 1u);
  EXPECT_TRUE(s.available);
}

TEST(RedisTier, RemoteHitBackfillsLocal) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  TempDir a_dir, b_dir;
  auto a = open_host(a_dir.path(), server.url());
  auto b = open_host(b_dir.path(), server.url());
  ASSERT_TRUE(a->put(make_key(4), make_meta(4), make_payload(4)));  // published
  std::vector<std::byte> got;
  auto accept = [&](std::span<const std::byte> p) {
    got.assign(p.begin(), p.end());
    return true;
  };
  auto first = b->get(make_key(4), accept);
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, std::optional<std::size_t>(1));  // from the remote
  EXPECT_EQ(got, make_payload(4));
  EXPECT_EQ(*b->get(make_key(4), accept), std::optional<std::size_t>(0));  // now local
  server.kill();  // the backfilled entry no longer needs the remote
  auto local = Store::open(test_config(b_dir.path()));
  ASSERT_TRUE(local);
  auto entry = (*local)->peek(make_key(4));
  ASSERT_TRUE(entry && *entry);
  EXPECT_EQ((*entry)->payload, make_payload(4));
  EXPECT_EQ((*entry)->meta.summary, make_meta(4).summary);
}

TEST(RedisTier, PublishIsFirstWriterWins) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  constexpr int kWriters = 8;
  std::vector<std::unique_ptr<RedisTier>> tiers;
  for (int i = 0; i < kWriters; ++i) tiers.push_back(open_remote(remote_config(server.url(), 500)));
  std::atomic<int> go{0};
  std::vector<int> won(kWriters, 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i)
    threads.emplace_back([&, i] {
      go.fetch_add(1);
      while (go.load() < kWriters) {
      }
      auto r = tiers[i]->put(make_key(9), make_meta(9), make_payload(100 + i, 64 * 1024));
      won[i] = r && *r ? 1 : 0;
    });
  for (auto& t : threads) t.join();
  ASSERT_EQ(std::count(won.begin(), won.end(), 1), 1);
  const int winner = static_cast<int>(std::find(won.begin(), won.end(), 1) - won.begin());
  std::vector<std::byte> got;
  ASSERT_EQ(*tiers[0]->get_with(make_key(9), [&](const EntryMeta&, std::span<const std::byte> p) {
    got.assign(p.begin(), p.end());
  }), true);
  EXPECT_EQ(got, make_payload(100 + winner, 64 * 1024));
}

TEST(RedisTier, CorruptOrTruncatedValuesAreRejected) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  const auto good = compressed_envelope(make_meta(1), make_payload(1, 8192));
  auto tampered_envelope = [] {
    auto meta = make_meta(2);
    auto payload = make_payload(2, 8192);
    EnvelopeFields f{meta.algorithm, meta.summary, meta.toolchain, 1, 1};
    std::vector<std::byte> env(*envelope_size(f, payload.size()));
    encode_envelope(env, f, payload);
    env[env.size() - 100] ^= std::byte{0x01};  // one payload bit
    std::string out(ZSTD_compressBound(env.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), env.data(), env.size(), 1));
    return out;
  }();
  const std::vector<std::string> bad = {
      "not zstd at all", good.substr(0, good.size() / 2), good.substr(0, 6), tampered_envelope,
      std::string(good.size(), '\0')};
  redisContext* c = server.connect();
  ASSERT_NE(c, nullptr);
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const std::string name = RedisTier::entry_key(make_key(i));
    auto* r = static_cast<redisReply*>(
        redisCommand(c, "SET %b %b", name.data(), name.size(), bad[i].data(), bad[i].size()));
    ASSERT_NE(r, nullptr);
    freeReplyObject(r);
  }
  redisFree(c);
  TempDir dir;
  auto stack = open_host(dir.path(), server.url());
  for (std::size_t i = 0; i < bad.size(); ++i) {
    bool accepted = false;
    auto r = stack->get(make_key(i), [&](std::span<const std::byte>) { return accepted = true; });
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, std::nullopt) << "value " << i;
    EXPECT_FALSE(accepted) << "value " << i;
  }
  EXPECT_EQ(stack->remote()->stats().rejected, bad.size());
  int local_entries = 0;
  ASSERT_TRUE(stack->local()->for_each([&](const CacheKey&, const EntryMeta&) { return ++local_entries > 0; }));
  EXPECT_EQ(local_entries, 0);
}

TEST(RedisTier, ReadOnlyClientNeverPublishesNorLeases) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  TempDir dir, writer_dir;
  Config c = test_config(dir.path());
  c.remote = remote_config(server.url());
  c.remote.read_only = true;
  auto stack = TierStack::open(c);
  ASSERT_TRUE(stack);
  ASSERT_TRUE((*stack)->put(make_key(1), make_meta(1), make_payload(1)));
  auto probe = open_remote(remote_config(server.url()));
  EXPECT_EQ(*probe->get_with(make_key(1), [](const EntryMeta&, std::span<const std::byte>) {}), false);
  auto refused = (*stack)->remote()->put(make_key(1), make_meta(1), make_payload(1));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::read_only);
  // It still reads what a writer published.
  auto writer = open_host(writer_dir.path(), server.url());
  ASSERT_TRUE(writer->put(make_key(2), make_meta(2), make_payload(2)));
  EXPECT_EQ(*(*stack)->get(make_key(2), [](std::span<const std::byte>) { return true; }),
            std::optional<std::size_t>(1));
}

TEST(RedisTier, PasswordFromFile) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server({"--requirepass", "s3cret-pw"});
  TempDir dir;
  const auto file = dir.path() / "pw";
  std::ofstream(file) << "s3cret-pw\n";
  auto remote = remote_config(server.url());
  auto without = open_remote(remote);
  EXPECT_FALSE(without->ping());
  remote.password_file = file;
  auto with = open_remote(remote);
  auto ping = with->ping();
  EXPECT_TRUE(ping) << ping.error().describe();
  EXPECT_EQ(*with->put(make_key(1), make_meta(1), make_payload(1)), true);
  remote.password_file = dir.path() / "absent";
  auto missing = RedisTier::open(remote);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::io);
}

TEST(RedisTier, BatchedFetchBackfillsInOneLookup) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  TempDir a_dir, b_dir;
  auto a = open_host(a_dir.path(), server.url());
  std::vector<CacheKey> keys;
  for (int i = 0; i < 12; ++i) {
    keys.push_back(make_key(i));
    if (i % 4 != 3) {
      ASSERT_TRUE(a->put(make_key(i), make_meta(i), make_payload(i)));
    }
  }
  auto b = open_host(b_dir.path(), server.url());
  ASSERT_TRUE(b->put(make_key(0), make_meta(0), make_payload(0)));  // one already local
  const auto remote_before = b->remote()->stats();
  const auto local_before = b->local()->stats();
  const auto served = b->fetch_many(keys, [](std::size_t, std::span<const std::byte>) { return true; });
  b->flush();  // the backfill is written in the background
  const auto remote_after = b->remote()->stats();
  const auto local_after = b->local()->stats();
  EXPECT_EQ(remote_after.hits - remote_before.hits, 8u);
  EXPECT_EQ(remote_after.misses - remote_before.misses, 3u);
  EXPECT_EQ(remote_after.requests - remote_before.requests, 1u);  // one MGET
  EXPECT_EQ(local_after.requests - local_before.requests, 1u);    // one write transaction
  EXPECT_EQ(local_after.puts - local_before.puts, 8u);
  ASSERT_EQ(served.size(), keys.size());
  for (int i = 0; i < 12; ++i) {
    const std::optional<std::size_t> want =
        i == 0 ? std::optional<std::size_t>(0) : i % 4 != 3 ? std::optional<std::size_t>(1) : std::nullopt;
    EXPECT_EQ(served[i], want) << i;
    bool local = *b->local()->get_payload_with(make_key(i), [](std::span<const std::byte>) {});
    EXPECT_EQ(local, i % 4 != 3) << i;
  }
}

// More keys than one batch holds: one MGET and one local commit per kFetchBatch keys.
// One MGET whose reply is large enough to be opened by several threads and spans
// several windows: every good value comes out whole with its signature, in key order,
// lent (get_many) or handed over (get_many_owned); corrupt values are rejected and
// misses are misses, wherever they fall.
TEST(RedisTier, LargeBatchOpenedInParallelKeepsEveryValueApart) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  constexpr std::size_t kKeys = 40;  // 8 KB of incompressible payload each: 320 KB
  auto kind = [](std::size_t i) { return i % 7 == 3 ? 'm' : i % 5 == 4 ? 'c' : 'g'; };
  redisContext* c = server.connect();
  ASSERT_NE(c, nullptr);
  std::vector<CacheKey> keys;
  for (std::size_t i = 0; i < kKeys; ++i) {
    keys.push_back(make_key(i));
    if (kind(i) == 'm') continue;
    std::string value = compressed_envelope(make_meta(i), make_payload(i, 8192));
    if (kind(i) == 'c') value[value.size() / 2] ^= 0x10;
    value += "key" + std::to_string(i) + ":sig";
    const std::string name = RedisTier::entry_key(keys.back());
    auto* r = static_cast<redisReply*>(
        redisCommand(c, "SET %b %b", name.data(), name.size(), value.data(), value.size()));
    ASSERT_NE(r, nullptr);
    freeReplyObject(r);
  }
  redisFree(c);
  Config config = test_config(TempDir().path());
  config.remote.url = server.url();
  auto tier = RedisTier::open(config.remote);
  ASSERT_TRUE(tier);
  std::vector<std::size_t> seen;
  const std::size_t hits = (*tier)->get_many(
      keys, [&](std::size_t i, const EntryMeta& meta, std::span<const std::byte> p, std::string_view sig) {
        seen.push_back(i);
        EXPECT_EQ(kind(i), 'g') << i;
        EXPECT_EQ(meta.summary, make_meta(i).summary) << i;
        EXPECT_TRUE(std::ranges::equal(p, make_payload(i, 8192))) << i;
        EXPECT_EQ(sig, "key" + std::to_string(i) + ":sig");
      });
  std::vector<std::size_t> good;
  std::size_t corrupt = 0;
  for (std::size_t i = 0; i < kKeys; ++i) {
    if (kind(i) == 'g') good.push_back(i);
    corrupt += kind(i) == 'c';
  }
  EXPECT_EQ(seen, good);
  EXPECT_EQ(hits, good.size());
  EXPECT_EQ((*tier)->stats().rejected, corrupt);
  EXPECT_EQ((*tier)->stats().misses, kKeys - good.size());
  // Handed over: the same payloads, still whole after the call and the tier are gone.
  std::map<std::size_t, SharedBytes> kept;
  EXPECT_EQ((*tier)->get_many_owned(keys, [&](std::size_t i, const EntryMeta&, SharedBytes p,
                                               std::string_view) { kept.emplace(i, std::move(p)); }),
            good.size());
  tier->reset();
  ASSERT_EQ(kept.size(), good.size());
  for (const auto& [i, p] : kept) {
    EXPECT_EQ(kind(i), 'g') << i;
    EXPECT_TRUE(std::ranges::equal(p.bytes, make_payload(i, 8192))) << i;
  }
}

TEST(RedisTier, BatchedFetchOfManyKeysTakesOneRequestPerBatch) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  TempDir a_dir, b_dir;
  auto a = open_host(a_dir.path(), server.url());
  constexpr std::size_t kKeys = TierStack::kFetchBatch + 4;
  std::vector<CacheKey> keys;
  for (std::size_t i = 0; i < kKeys; ++i) {
    keys.push_back(make_key(i));
    ASSERT_TRUE(a->put(make_key(i), make_meta(i), make_payload(i)));
  }
  auto b = open_host(b_dir.path(), server.url());
  const auto served = b->fetch_many(keys, [](std::size_t, std::span<const std::byte>) { return true; });
  b->flush();
  EXPECT_EQ(std::ranges::count(served, std::optional<std::size_t>(1)), std::ptrdiff_t(kKeys));
  EXPECT_EQ(b->remote()->stats().requests, 2u);
  const auto local = b->local()->stats();
  EXPECT_EQ(local.requests, 2u);  // two write transactions, no lookup counted
  EXPECT_EQ(local.puts, kKeys);
}

// What each client flushes adds up on the server, requests included: a batched lookup of
// many keys is one request there too.
TEST(RedisTier, SharedStatsAddUpEveryClientsRequests) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  auto writer = open_remote(remote_config(server.url()));
  auto reader = open_remote(remote_config(server.url()));
  ASSERT_TRUE(writer && reader);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(writer->put(make_key(i), make_meta(i), make_payload(i)));
  const std::vector<CacheKey> keys{make_key(0), make_key(1), make_key(2), make_key(3)};
  EXPECT_EQ(reader->get_many(keys, [](std::size_t, const EntryMeta&, std::span<const std::byte>,
                                      std::string_view) {}),
            3u);
  EXPECT_EQ(writer->stats().requests, 3u);
  EXPECT_EQ(reader->stats().requests, 1u);
  ASSERT_TRUE(writer->flush_stats());
  ASSERT_TRUE(reader->flush_stats());
  ASSERT_TRUE(reader->flush_stats());  // nothing new: adds nothing
  auto shared = open_remote(remote_config(server.url()))->shared_stats();
  ASSERT_TRUE(shared) << shared.error().describe();
  EXPECT_EQ(shared->requests, 4u);
  EXPECT_EQ(shared->puts, 3u);
  EXPECT_EQ(shared->hits, 3u);
  EXPECT_EQ(shared->misses, 1u);
}

// Every request succeeds and none waits much past the time bound while the server is
// killed, paused and restarted; the tier is used again once it is back.
TEST(RedisTier, OutageNeverFailsOrStallsAndRecovers) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64);
  set_logger(std::make_shared<spdlog::logger>("test", sink));
  constexpr std::uint32_t kTimeoutMs = 20;
  auto remote_cfg = remote_config(server.url(), kTimeoutMs);
  remote_cfg.retry_ms = 100;
  auto remote = open_remote(remote_cfg);
  RedisTier* remote_view = remote.get();
  TierStack stack(make_memory_tier(), {}, std::move(remote));
  stack.set_claim(remote_view->lease(std::chrono::milliseconds(1000)), std::chrono::milliseconds(50));

  std::uint64_t next = 0;
  Clock::duration worst{};
  int builds = 0;
  auto requests = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const std::uint64_t k = next++;
      const auto t0 = Clock::now();
      auto r = stack.load_or_build(
          make_key(k), [](std::span<const std::byte>) { return true; },
          [&]() -> Result<TierStack::Built> {
            ++builds;
            return TierStack::Built{make_meta(k), make_payload(k, 1024)};
          });
      worst = std::max(worst, Clock::now() - t0);
      ASSERT_TRUE(r) << r.error().describe();
    }
  };
  requests(20);
  EXPECT_TRUE(remote_view->stats().available);
  server.kill();
  requests(50);
  EXPECT_FALSE(remote_view->stats().available);
  server.restart();
  server.pause();
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // past retry: it tries again
  requests(50);
  server.resume();
  EXPECT_LT(worst, std::chrono::milliseconds(kTimeoutMs + 60))
      << "a request waited " << std::chrono::duration<double, std::milli>(worst).count() << " ms";
  EXPECT_EQ(builds, 120);
  EXPECT_GT(remote_view->stats().errors, 0u);

  // Back: a later request publishes again and another client reads it from the remote.
  const auto until = Clock::now() + std::chrono::seconds(5);
  bool published = false;
  while (!published && Clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::uint64_t k = next++;
    ASSERT_TRUE(stack.put(make_key(k), make_meta(k), make_payload(k, 1024)));
    auto probe = open_remote(remote_config(server.url(), 500));
    published = *probe->get_with(make_key(k), [](const EntryMeta&, std::span<const std::byte>) {});
  }
  EXPECT_TRUE(published);
  EXPECT_TRUE(remote_view->stats().available);
  int down = 0, back = 0;
  for (const auto& line : sink->last_formatted()) {
    down += line.find("using the local tiers only") != std::string::npos;
    back += line.find("reachable again") != std::string::npos;
  }
  set_logger(nullptr);
  EXPECT_GE(down, 1);
  EXPECT_LE(down, 3);  // once per outage (kill, pause), not once per request
  EXPECT_GE(back, 1);
}

// A fork()ed child never uses the parent's pooled connection (replies would interleave).
TEST(RedisTier, ForkedChildUsesItsOwnConnection) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  auto tier = open_remote(remote_config(server.url()));
  ASSERT_TRUE(tier->put(make_key(1), make_meta(1), make_payload(1)));  // pools a connection
  ASSERT_TRUE(tier->put(make_key(2), make_meta(2), make_payload(2, 50'000)));
  // Parent and child read at the same time: on one shared socket their replies would
  // cross (each would get the other's value).
  auto read_loop = [&](std::uint64_t k, std::size_t size) {
    for (int i = 0; i < 300; ++i) {
      std::vector<std::byte> got;
      auto hit = tier->get_with(make_key(k), [&](const EntryMeta&, std::span<const std::byte> p) {
        got.assign(p.begin(), p.end());
      });
      if (!hit || !*hit || got != make_payload(k, size)) return 1;
    }
    return 0;
  };
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(read_loop(2, 50'000));
  const int parent = read_loop(1, 0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(parent, 0);
  ASSERT_TRUE(WIFEXITED(status));
  const int rc = WEXITSTATUS(status);
  EXPECT_EQ(rc, 0);
}

TEST(RedisTier, UnreachableServerIsBounded) {
  for (std::string url : {"redis://127.0.0.1:1/0", "redis://192.0.2.1:6379/0"}) {
    auto remote = remote_config(url, 10);
    auto tier = open_remote(remote);
    TierStack stack(make_memory_tier(), {}, std::move(tier));
    const auto t0 = Clock::now();
    for (int i = 0; i < 20; ++i) {
      auto r = stack.get(make_key(i), [](std::span<const std::byte>) { return true; });
      ASSERT_TRUE(r);
      EXPECT_EQ(*r, std::nullopt);
      ASSERT_TRUE(stack.put(make_key(i), make_meta(i), make_payload(i)));
    }
    EXPECT_LT(Clock::now() - t0, std::chrono::milliseconds(200)) << url;
    EXPECT_FALSE(stack.remote()->stats().available) << url;
  }
}

}  // namespace
}  // namespace cccl_cache
