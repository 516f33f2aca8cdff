// The operator's counters of cluster sharing, persisted in the store like hits and
// misses: host-claim waits, waits that ran past build_wait_ms (built here as well),
// Store::count's events (cc_fallback serves, lease waits) across processes.
#include <gtest/gtest.h>

#include <thread>

#include "cccl_cache/cache/tiers.hpp"
#include "test_util.hpp"

namespace cccl_cache {
namespace {

using namespace test;
using namespace std::chrono_literals;

StoreStats stats_of(const std::filesystem::path& dir) {
  auto store = Store::open(test_config(dir));
  EXPECT_TRUE(store) << store.error().describe();
  auto s = (*store)->stats();
  EXPECT_TRUE(s) << s.error().describe();
  return s ? *s : StoreStats{};
}

// Two stacks of one process on one directory miss one key at once (two holds of one
// key exclude each other as two processes' do): the second waits for the first's
// build. Returns how many builds ran.
int race(const Config& c, std::uint64_t i, std::chrono::milliseconds build_time) {
  auto a = *TierStack::open(c);
  auto b = *TierStack::open(c);
  std::atomic<int> builds{0};
  auto accept = [](std::span<const std::byte>) { return true; };
  auto build = [&]() -> Result<TierStack::Built> {
    ++builds;
    std::this_thread::sleep_for(build_time);
    return TierStack::Built{make_meta(i), make_payload(i)};
  };
  std::thread first([&] { EXPECT_TRUE(a->load_or_build(make_key(i), accept, build)); });
  std::this_thread::sleep_for(50ms);  // the first holds the claim by now
  auto second = b->load_or_build(make_key(i), accept, build);
  first.join();
  EXPECT_TRUE(second) << second.error().describe();
  return builds.load();
}

TEST(ClusterStats, HostClaimWaitsAndWaitsPastTheBound) {
  TempDir dir;
  Config c = test_config(dir.path());
  c.build_wait_ms = 10'000;
  EXPECT_EQ(race(c, 1, 300ms), 1) << "the waiter loads the first build";
  auto s = stats_of(dir.path());
  EXPECT_EQ(s.host_claim_waits, 1u);
  EXPECT_EQ(s.wait_bound_builds, 0u);

  c.build_wait_ms = 50;
  EXPECT_EQ(race(c, 2, 600ms), 2) << "past the bound the waiter builds too";
  s = stats_of(dir.path());
  EXPECT_EQ(s.host_claim_waits, 2u);
  EXPECT_EQ(s.wait_bound_builds, 1u);
  EXPECT_EQ(s.cluster_lease_waits, 0u) << "no remote tier";
}

TEST(ClusterStats, CountedEventsPersistAcrossProcesses) {
  TempDir dir;
  {
    auto store = *Store::open(test_config(dir.path()));
    store->count(Counter::cc_fallback_serves);
    store->count(Counter::cc_fallback_serves, 2);
    store->count(Counter::cluster_lease_waits);
    store->count(Counter::hits, 5);  // not an event counter: ignored
    auto s = store->stats();
    ASSERT_TRUE(s);
    EXPECT_EQ(s->cc_fallback_serves, 3u) << "the unwritten batch is included";
  }
  // Another process sees what this one wrote; it adds its own.
  EXPECT_EQ(run_child([&] {
              auto store = *Store::open(test_config(dir.path()));
              auto s = store->stats();
              if (!s || s->cc_fallback_serves != 3 || s->cluster_lease_waits != 1 || s->hits != 0)
                return 1;
              store->count(Counter::signature_rejections, 4);
              return 0;
            }),
            0);
  auto s = stats_of(dir.path());
  EXPECT_EQ(s.signature_rejections, 4u);
  EXPECT_EQ(s.cc_fallback_serves, 3u);

  // A read-only store counts in memory only.
  Config ro = test_config(dir.path());
  ro.read_only = true;
  EXPECT_EQ(run_child([&] {
              auto store = *Store::open(ro);
              store->count(Counter::wait_bound_builds);
              auto mem = store->stats();
              return mem && mem->wait_bound_builds == 1 ? 0 : 1;
            }),
            0);
  EXPECT_EQ(stats_of(dir.path()).wait_bound_builds, 0u);

  // clear() resets them with the other counters.
  auto store = *Store::open(test_config(dir.path()));
  ASSERT_TRUE(store->clear());
  EXPECT_EQ(store->stats()->signature_rejections, 0u);
}

}  // namespace
}  // namespace cccl_cache
