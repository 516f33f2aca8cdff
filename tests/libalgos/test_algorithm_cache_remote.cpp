// AlgorithmCache over tier stacks sharing one real redis-server (skipped without it):
// two simulated hosts (two local stores) prewarming one spec at once build it once
// (the cluster lease), the other host's entry arrives from the remote tier and is
// backfilled into its local store. One NVRTC build.
#include <gtest/gtest.h>

#include <thread>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "redis_server.hpp"
#include "redis_test_util.hpp"

namespace {

using cccl_cache::algos::AlgorithmCache;
namespace ms = cccl_cache::algos::merge_sort;

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

}  // namespace
