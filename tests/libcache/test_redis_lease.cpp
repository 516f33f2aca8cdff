// The cluster build lease against a real redis-server: two simulated hosts (two local
// stores, one Redis) missing one key at once build it once; an expired lease lets
// another host build; waiting is bounded; a dead Redis never blocks a build.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "redis_server.hpp"
#include "redis_test_util.hpp"

namespace cccl_cache {
namespace {

using namespace test;
using Clock = std::chrono::steady_clock;

struct Outcome {
  bool ok = false;
  bool built = false;
  std::vector<std::byte> payload;
};

// load_or_build of `key` on `host` with a fake build that takes `build_time` and counts.
Outcome obtain(TierStack& host, const CacheKey& key, std::atomic<int>& builds,
               std::chrono::milliseconds build_time = std::chrono::milliseconds(300)) {
  Outcome out;
  auto r = host.load_or_build(
      key,
      [&](std::span<const std::byte> p) {
        out.payload.assign(p.begin(), p.end());
        return true;
      },
      [&]() -> Result<TierStack::Built> {
        builds.fetch_add(1);
        std::this_thread::sleep_for(build_time);
        out.payload = make_payload(key.spec.low, 80 * 1024);
        return TierStack::Built{make_meta(key.spec.low), out.payload};
      });
  out.ok = r.has_value();
  out.built = r && r->built;
  return out;
}

// The persisted counters of the store at `dir` (with this process's unwritten batch).
StoreStats stats_of(const std::filesystem::path& dir) {
  auto store = Store::open(test_config(dir));
  EXPECT_TRUE(store) << store.error().describe();
  auto s = store ? (*store)->stats() : Result<StoreStats>(StoreStats{});
  EXPECT_TRUE(s);
  return s ? *s : StoreStats{};
}

// A lease on `key` taken by another (simulated) host, lasting `ms`.
void take_lease(const RedisServer& server, const CacheKey& key, const char* holder, int ms) {
  redisContext* c = server.connect();
  ASSERT_NE(c, nullptr);
  const std::string lease =
      "cccl-cache:e" + std::to_string(kEnvelopeVersion) + ":lease:" + key.to_string();
  freeReplyObject(redisCommand(c, "SET %s %s PX %d", lease.c_str(), holder, ms));
  redisFree(c);
}

TEST(RedisLease, TwoHostsMissingOneKeyBuildOnce) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  TempDir a_dir, b_dir;
  auto a = open_host(a_dir.path(), server.url());
  auto b = open_host(b_dir.path(), server.url());
  std::atomic<int> builds{0};
  constexpr int kPerHost = 4;
  std::vector<Outcome> outcomes(2 * kPerHost);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2 * kPerHost; ++i)
    threads.emplace_back([&, i] { outcomes[i] = obtain(i % 2 ? *b : *a, make_key(42), builds); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(builds.load(), 1);
  for (const auto& o : outcomes) {
    EXPECT_TRUE(o.ok);
    EXPECT_EQ(o.payload, make_payload(42, 80 * 1024));
  }
  // Both hosts now hold it locally.
  for (auto* host : {a.get(), b.get()})
    EXPECT_EQ(*host->local()->get_payload_with(make_key(42), [](std::span<const std::byte>) {}), true);
  // Counted: the host that did not build waited for the other's lease; on each host the
  // other threads waited for its host claim (3 each); nothing ran past the bound.
  const auto sa = stats_of(a_dir.path()), sb = stats_of(b_dir.path());
  EXPECT_EQ(sa.cluster_lease_waits + sb.cluster_lease_waits, 1u);
  EXPECT_EQ(sa.host_claim_waits + sb.host_claim_waits, 2u * (kPerHost - 1));
  EXPECT_EQ(sa.wait_bound_builds + sb.wait_bound_builds, 0u);
}

TEST(RedisLease, ExpiredLeaseLetsAnotherHostBuild) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  take_lease(server, make_key(5), "dead-host", 300);  // it died: expires after 300 ms
  TempDir dir;
  auto host = open_host(dir.path(), server.url(), 5000, 10000);
  std::atomic<int> builds{0};
  const auto t0 = Clock::now();
  auto o = obtain(*host, make_key(5), builds, std::chrono::milliseconds(0));
  const auto waited = Clock::now() - t0;
  EXPECT_TRUE(o.ok && o.built);
  EXPECT_EQ(builds.load(), 1);
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  EXPECT_LT(waited, std::chrono::milliseconds(2000));
  const auto st = stats_of(dir.path());
  EXPECT_EQ(st.cluster_lease_waits, 1u);
  EXPECT_EQ(st.wait_bound_builds, 0u) << "the lease expired within the bound";
}

TEST(RedisLease, WaitingIsBounded) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  take_lease(server, make_key(6), "stuck-host", 60'000);
  TempDir dir;
  auto host = open_host(dir.path(), server.url(), 5000, /*wait_ms=*/300);
  std::atomic<int> builds{0};
  const auto t0 = Clock::now();
  auto o = obtain(*host, make_key(6), builds, std::chrono::milliseconds(0));
  const auto waited = Clock::now() - t0;
  EXPECT_TRUE(o.ok && o.built);
  EXPECT_GE(waited, std::chrono::milliseconds(300));
  // Far below the stuck lease's 60 s, with room for a loaded CI machine.
  EXPECT_LT(waited, std::chrono::seconds(10));
  const auto st = stats_of(dir.path());
  EXPECT_EQ(st.cluster_lease_waits, 1u);
  EXPECT_EQ(st.wait_bound_builds, 1u);
  EXPECT_EQ(st.host_claim_waits, 0u);
}

TEST(RedisLease, ReleasedAfterTheBuild) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  TempDir dir;
  auto host = open_host(dir.path(), server.url());
  std::atomic<int> builds{0};
  ASSERT_TRUE(obtain(*host, make_key(8), builds, std::chrono::milliseconds(0)).built);
  EXPECT_EQ(stats_of(dir.path()).cluster_lease_waits, 0u) << "a free lease is no wait";
  redisContext* c = server.connect();
  ASSERT_NE(c, nullptr);
  auto* r = static_cast<redisReply*>(redisCommand(c, "KEYS *lease*"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->elements, 0u);
  freeReplyObject(r);
  redisFree(c);
}

TEST(RedisLease, DeadRedisBuildsLocallyAtOnce) {
  CCCL_CACHE_REQUIRE_REDIS();
  auto server = std::make_unique<RedisServer>();
  const std::string url = server->url();
  server.reset();  // gone
  TempDir dir;
  auto host = open_host(dir.path(), url);
  std::atomic<int> builds{0};
  const auto t0 = Clock::now();
  auto o = obtain(*host, make_key(3), builds, std::chrono::milliseconds(0));
  EXPECT_TRUE(o.ok && o.built);
  EXPECT_LT(Clock::now() - t0, std::chrono::milliseconds(500));
}

}  // namespace
}  // namespace cccl_cache
