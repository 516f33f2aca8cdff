// Budget enforcement (LRU) and explicit eviction by criteria.
#include <thread>

#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

TEST(StoreEviction, BudgetKeepsLiveBytesUnderAndRemovesLeastRecentlyUsed) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.max_size = 10 * 1000;
  auto store = *Store::open(cfg);
  for (std::uint64_t i = 0; i < 10; ++i)
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i, 1000)));
  EXPECT_EQ(store->stats()->live_bytes, 10'000u);
  // Use 0..4 so that 5..9 become the least recently used.
  for (std::uint64_t i = 0; i < 5; ++i) ASSERT_TRUE(store->get(make_key(i))->has_value());
  for (std::uint64_t i = 10; i < 15; ++i) {
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i, 1000)));
    EXPECT_LE(store->stats()->live_bytes, cfg.max_size);
  }
  for (std::uint64_t i = 0; i < 15; ++i) {
    const bool evicted = i >= 5 && i < 10;
    EXPECT_EQ(store->peek(make_key(i))->has_value(), !evicted) << i;
  }
  auto s = store->stats();
  EXPECT_EQ(s->evictions, 5u);
  EXPECT_EQ(s->bytes_evicted, 5000u);
  EXPECT_EQ(s->entries, 10u);
}

TEST(StoreEviction, ByCriteria) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  auto put = [&](std::uint64_t i, std::uint32_t cc, std::string algo, std::string tc,
                 std::uint32_t fmt) {
    auto m = make_meta(i, std::move(algo));
    m.toolchain = std::move(tc);
    m.payload_format = fmt;
    ASSERT_TRUE(store->put(make_key(i, cc), m, make_payload(i, 100)));
  };
  put(1, 80, "merge_sort", "tc-a", 1);
  put(2, 90, "merge_sort", "tc-a", 1);
  put(3, 90, "reduce", "tc-a", 1);
  put(4, 90, "reduce", "tc-b", 1);
  put(5, 90, "reduce", "tc-a", 2);

  auto dry = store->evict({.cc = 80u, .dry_run = true});
  ASSERT_TRUE(dry);
  ASSERT_EQ(dry->removed.size(), 1u);
  EXPECT_EQ(store->stats()->entries, 5u);  // dry run changes nothing

  auto r = store->evict({.cc = 80u});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->removed.size(), 1u);
  EXPECT_EQ(r->removed[0].key, make_key(1, 80));
  EXPECT_EQ(r->bytes_freed, 100u);

  using Toolchains = std::map<std::string, std::string, std::less<>>;
  r = store->evict({.toolchain_mismatch_with = Toolchains{{"merge_sort", "tc-a"}, {"reduce", "tc-a"}},
                    .payload_format = 1u});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->removed.size(), 2u);  // 4 (toolchain) and 5 (format)
  EXPECT_FALSE(store->peek(make_key(4, 90))->has_value());
  EXPECT_FALSE(store->peek(make_key(5, 90))->has_value());

  r = store->evict({.cc = 90u, .algorithm = std::string("reduce")});  // both must match
  ASSERT_TRUE(r);
  ASSERT_EQ(r->removed.size(), 1u);
  EXPECT_EQ(r->removed[0].key, make_key(3, 90));
  EXPECT_TRUE(store->peek(make_key(2, 90))->has_value());
  EXPECT_EQ(store->stats()->evictions, 4u);

  auto none = store->evict({});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::invalid_argument);
}

// Each algorithm's entries are checked against that algorithm's own fingerprint: one
// algorithm's change of toolchain leaves the other's entries; an algorithm without a
// fingerprint (unknown to the caller) is a mismatch.
TEST(StoreEviction, ToolchainMismatchIsPerAlgorithm) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  auto put = [&](std::uint64_t i, std::string algo, std::string tc) {
    auto m = make_meta(i, std::move(algo));
    m.toolchain = std::move(tc);
    ASSERT_TRUE(store->put(make_key(i), m, make_payload(i, 100)));
  };
  put(1, "merge_sort", "tc abi-1");
  put(2, "reduce", "tc abi-2");
  put(3, "reduce", "tc abi-1");
  put(4, "retired_algorithm", "tc abi-1");
  using Toolchains = std::map<std::string, std::string, std::less<>>;
  auto r = store->evict(
      {.toolchain_mismatch_with = Toolchains{{"merge_sort", "tc abi-1"}, {"reduce", "tc abi-2"}}});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->removed.size(), 2u);
  EXPECT_TRUE(store->peek(make_key(1))->has_value());
  EXPECT_TRUE(store->peek(make_key(2))->has_value());
  EXPECT_FALSE(store->peek(make_key(3))->has_value());
  EXPECT_FALSE(store->peek(make_key(4))->has_value());
  EXPECT_EQ(r->removed[0].reason, "toolchain mismatch");
}

TEST(StoreEviction, ByAgeUsesBatchedLastUse) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  for (std::uint64_t i = 0; i < 4; ++i)
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i)));
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  ASSERT_TRUE(store->get(make_key(2))->has_value());  // pending (not flushed) touch
  auto r = store->evict({.older_than_s = 1});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->removed.size(), 3u);
  EXPECT_TRUE(store->peek(make_key(2))->has_value());
}

TEST(StoreEviction, LruTrimToBudgetOnRequest) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  for (std::uint64_t i = 0; i < 8; ++i)
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i, 1000)));
  ASSERT_TRUE(store->get(make_key(0))->has_value());
  auto dry = store->evict({.max_live_bytes = 3000, .dry_run = true});
  ASSERT_TRUE(dry);
  EXPECT_EQ(dry->removed.size(), 5u);
  EXPECT_EQ(store->stats()->live_bytes, 8000u);
  auto r = store->evict({.max_live_bytes = 3000});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->bytes_freed, 5000u);
  EXPECT_EQ(store->stats()->live_bytes, 3000u);
  EXPECT_TRUE(store->peek(make_key(0))->has_value());  // recently used survives
  EXPECT_TRUE(store->peek(make_key(7))->has_value());
  EXPECT_FALSE(store->peek(make_key(1))->has_value());
}

}  // namespace
}  // namespace cccl_cache
