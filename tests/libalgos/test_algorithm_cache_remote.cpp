// AlgorithmCache over tier stacks sharing one real redis-server (skipped without it):
// two simulated hosts (two local stores) prewarming one spec at once build it once
// (the cluster lease), the other host's entry arrives from the remote tier and is
// backfilled into its local store. One NVRTC build. A new node's start-up in one batch
// (AlgorithmCache::prefetch): one MGET and one local commit for every spec, rejected
// entries left out, a paused server costing no more than its time bound. Transforms (the
// cheapest builds): three, two and two.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/transform/spec.hpp"
#include "cccl_cache/cache/cc_family.hpp"
#include "algorithm_cache_access.hpp"
#include "redis_server.hpp"
#include "redis_test_util.hpp"

namespace {

using cccl_cache::algos::AlgorithmCache;
using cccl_cache::algos::AnySpec;
namespace ms = cccl_cache::algos::merge_sort;
namespace ca = cccl_cache::algos;

TEST(AlgorithmCacheRemote, TwoHostsPrewarmingOneSpecBuildOnce) {
  CCCL_CACHE_REQUIRE_REDIS();
  cccl_cache::test::RedisServer server;
  cccl_cache::test::TempDir a_dir, b_dir;
  AlgorithmCache a(cccl_cache::test::open_host(a_dir.path(), server.url(), 60'000, 120'000));
  AlgorithmCache b(cccl_cache::test::open_host(b_dir.path(), server.url(), 60'000, 120'000));
  ms::Spec spec;
  spec.key_type = cccl_cache::algos::ScalarType::uint32;
  spec.offset_type = cccl_cache::algos::ScalarType::int64;
  cccl_cache::Result<bool> ra = false, rb = false;
  std::thread ta([&] { ra = a.prewarm(spec, 90); });
  std::thread tb([&] { rb = b.prewarm(spec, 90); });
  ta.join();
  tb.join();
  ASSERT_TRUE(ra) << ra.error().describe();
  ASSERT_TRUE(rb) << rb.error().describe();
  EXPECT_NE(*ra, *rb);  // one built, the other loaded
  EXPECT_EQ(a.stats().builds + b.stats().builds, 1u);
  EXPECT_EQ(a.stats().store_hits + b.stats().store_hits, 1u);
  for (const auto* dir : {&a_dir, &b_dir}) {
    auto local = cccl_cache::Store::open(cccl_cache::test::test_config(dir->path()));
    ASSERT_TRUE(local);
    int entries = 0;
    ASSERT_TRUE((*local)->for_each([&](const cccl_cache::CacheKey&, const cccl_cache::EntryMeta& m) {
      EXPECT_EQ(m.algorithm, "merge_sort");
      return ++entries > 0;
    }));
    EXPECT_EQ(entries, 1);
  }
}

// Three specs of the cheapest builds (one kernel each).
std::vector<AnySpec> three_specs() {
  ca::transform::UnarySpec negate_f32;
  negate_f32.op = ca::Operator::of(ca::OpKind::negate);
  ca::transform::UnarySpec negate_i64 = negate_f32;
  negate_i64.in = {ca::ScalarType::int64};
  negate_i64.out = ca::ScalarType::int64;
  ca::transform::BinarySpec plus_f32;
  return {ca::to_any(negate_f32), ca::to_any(negate_i64), ca::to_any(plus_f32)};
}

// The local writes of a store tier: its requests that were no lookup.
std::uint64_t writes(const cccl_cache::TierStats& s) {
  return s.requests - s.hits - s.misses - s.errors;
}

// What prefetch() reported: the counts expected.
void expect_report(const cccl_cache::Result<ca::PrefetchReport>& r, std::size_t local,
                   std::size_t fetched, std::size_t missing) {
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->local, local);
  EXPECT_EQ(r->fetched, fetched);
  EXPECT_EQ(r->missing, missing);
}

// A node that built `specs` for sm_90 and published them (signed when `signer` is set).
void publish(const std::filesystem::path& dir, const std::string& url, const std::vector<AnySpec>& specs,
             std::shared_ptr<const cccl_cache::SecretKey> signer = nullptr) {
  auto tiers = cccl_cache::test::open_host(dir, url);
  ASSERT_TRUE(tiers);
  tiers->set_signing(nullptr, std::move(signer));
  AlgorithmCache builder(tiers);
  for (const auto& spec : specs) {
    auto r = builder.prewarm(spec, 90);
    ASSERT_TRUE(r) << r.error().describe();
  }
  EXPECT_EQ(tiers->remote()->stats().puts, specs.size());
}

TEST(AlgorithmCacheRemote, PrefetchTakesEveryMissingSpecInOneMgetAndOneCommit) {
  CCCL_CACHE_REQUIRE_REDIS();
  cccl_cache::test::RedisServer server;
  cccl_cache::test::TempDir builder_dir, node_dir;
  const auto specs = three_specs();
  publish(builder_dir.path(), server.url(), specs);
  {
    auto tiers = cccl_cache::test::open_host(node_dir.path(), server.url());
    AlgorithmCache node(tiers);
    expect_report(node.prefetch_for_cc(specs, 90), 0, 3, 0);
    EXPECT_EQ(node.stats().prefetched, 3u);
    tiers->flush();  // the backfill is written in the background
    const auto remote = tiers->remote()->stats();
    EXPECT_EQ(remote.requests, 1u);  // one MGET for all three
    EXPECT_EQ(remote.hits, 3u);
    const auto local = tiers->local()->stats();
    EXPECT_EQ(writes(local), 1u);  // one write transaction for the three backfills
    EXPECT_EQ(local.puts, 3u);
    // Each spec is then a local hit: nothing built, nothing more asked of the remote.
    for (const auto& spec : specs) {
      auto built = node.prewarm(spec, 90);
      ASSERT_TRUE(built) << built.error().describe();
      EXPECT_FALSE(*built);
    }
    EXPECT_EQ(node.stats().builds, 0u);
    EXPECT_EQ(tiers->remote()->stats().requests, 1u);
  }
  // The next start-up of the node finds all of them locally and asks the remote nothing.
  auto tiers = cccl_cache::test::open_host(node_dir.path(), server.url());
  AlgorithmCache again(tiers);
  expect_report(again.prefetch_for_cc(specs, 90), 3, 0, 0);
  EXPECT_EQ(tiers->remote()->stats().requests, 0u);
  EXPECT_EQ(writes(tiers->local()->stats()), 0u);
}

// With a trusted key, an unsigned entry and a corrupt value in the batch are rejected and
// never reach the local store; the third is taken all the same.
TEST(AlgorithmCacheRemote, PrefetchRejectsBadEntriesWithoutBlockingTheOthers) {
  CCCL_CACHE_REQUIRE_REDIS();
  cccl_cache::test::RedisServer server;
  cccl_cache::test::TempDir builder_dir, node_dir;
  const auto specs = three_specs();
  auto ci = std::make_shared<const cccl_cache::SecretKey>(*cccl_cache::SecretKey::generate("ci"));
  publish(builder_dir.path(), server.url(), {specs[0], specs[2]}, ci);
  auto remote = cccl_cache::test::open_remote(cccl_cache::test::remote_config(server.url()));
  // Spec 0: the same entry republished unsigned; spec 1 (never built): bytes that are no
  // entry; spec 2: as published, signed.
  const auto key0 = ca::cache_key(specs[0], 90), key1 = ca::cache_key(specs[1], 90);
  auto builder = cccl_cache::Store::open(cccl_cache::test::test_config(builder_dir.path()));
  ASSERT_TRUE(builder);
  auto entry0 = (*builder)->peek(key0);
  ASSERT_TRUE(entry0 && *entry0);
  ASSERT_TRUE(remote->remove(key0));
  ASSERT_TRUE(remote->put((*entry0)->key, (*entry0)->meta, (*entry0)->payload));
  {
    redisContext* c = redisConnect("127.0.0.1", server.port());
    ASSERT_TRUE(c && !c->err);
    const std::string name = cccl_cache::RedisTier::entry_key(key1);
    auto* reply = static_cast<redisReply*>(redisCommand(c, "SET %b %b", name.data(), name.size(), "garbage", 7ul));
    ASSERT_TRUE(reply);
    freeReplyObject(reply);
    redisFree(c);
  }
  auto tiers = cccl_cache::test::open_host(node_dir.path(), server.url());
  cccl_cache::TrustSet trust;
  ASSERT_TRUE(trust.add(ci->public_key()));
  tiers->set_signing(std::make_shared<cccl_cache::SignatureGate>(std::move(trust)), nullptr);
  AlgorithmCache node(tiers);
  expect_report(node.prefetch_for_cc(specs, 90), 0, 1, 2);
  EXPECT_EQ(tiers->remote()->stats().requests, 1u);
  EXPECT_EQ(tiers->remote()->stats().rejected, 1u);          // the garbage
  EXPECT_EQ(tiers->signature_counts().rejected(), 1u);     // the unsigned one
  tiers->flush();
  EXPECT_FALSE(*tiers->local()->contains(key0));
  EXPECT_FALSE(*tiers->local()->contains(key1));
  EXPECT_TRUE(*tiers->local()->contains(ca::cache_key(specs[2], 90)));
}

// A paused (SIGSTOPped) Redis during the batch: prefetch returns within the remote's time
// bound, and every spec is still served: from the local store, or built.
TEST(AlgorithmCacheRemote, PrefetchWithRedisPausedStillServesEverySpec) {
  CCCL_CACHE_REQUIRE_REDIS();
  cccl_cache::test::RedisServer server;
  cccl_cache::test::TempDir builder_dir, node_dir;
  auto specs = three_specs();
  specs.pop_back();
  publish(builder_dir.path(), server.url(), {specs[0]});
  {  // the node has the first already; the second is nowhere
    auto tiers = cccl_cache::test::open_host(node_dir.path(), server.url());
    AlgorithmCache node(tiers);
    expect_report(node.prefetch_for_cc(std::span(specs).first(1), 90), 0, 1, 0);
  }
  auto tiers = cccl_cache::test::open_host(node_dir.path(), server.url());  // timeout 200 ms
  AlgorithmCache node(tiers);
  server.pause();
  const auto t0 = std::chrono::steady_clock::now();
  auto report = node.prefetch_for_cc(specs, 90);
  const auto took = std::chrono::steady_clock::now() - t0;
  server.resume();
  expect_report(report, 1, 0, 1);
  EXPECT_EQ(tiers->remote()->stats().errors, 1u);
  // One bounded attempt (200 ms), not one per spec; generous for a loaded CI machine.
  EXPECT_LT(took, std::chrono::milliseconds(1500));
  server.pause();
  for (const auto& spec : specs) {
    auto built = node.prewarm(spec, 90);
    ASSERT_TRUE(built) << built.error().describe();
  }
  server.resume();
  EXPECT_EQ(node.stats().builds, 1u);
  EXPECT_EQ(node.stats().store_hits, 1u);
}

// A device of CC 8.6 with cc_fallback: no sm_86 entry anywhere, so a second batch asks
// for the lower minors' entries of the specs still missing and takes sm_80's.
TEST(AlgorithmCacheRemote, PrefetchTakesALowerMinorsEntryInASecondBatch) {
  CCCL_CACHE_REQUIRE_REDIS();
  cccl_cache::test::RedisServer server;
  cccl_cache::test::TempDir builder_dir, node_dir;
  const std::vector<AnySpec> specs{three_specs().front()};
  {
    auto tiers = cccl_cache::test::open_host(builder_dir.path(), server.url());
    AlgorithmCache builder(tiers);
    auto built = builder.prewarm(specs[0], 80);
    ASSERT_TRUE(built) << built.error().describe();
  }
  auto tiers = cccl_cache::test::open_host(node_dir.path(), server.url());
  AlgorithmCache node(tiers);
  const auto ccs = cccl_cache::serving_ccs(86, true);
  expect_report(ca::detail::AlgorithmCacheAccess::prefetch(node, specs, ccs), 0, 1, 0);
  EXPECT_EQ(tiers->remote()->stats().requests, 2u);  // sm_86, then 8.5 .. 8.0 at once
  tiers->flush();
  EXPECT_FALSE(*tiers->local()->contains(ca::cache_key(specs[0], 86)));
  EXPECT_TRUE(*tiers->local()->contains(ca::cache_key(specs[0], 80)));
}

}  // namespace
