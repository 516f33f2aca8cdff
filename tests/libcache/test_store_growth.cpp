// The map grows past its initial size, other processes follow, and a map that
// cannot grow any more reports storage_full without damaging what is stored.
#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

TEST(StoreGrowth, MapGrowsPastInitialSize) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;
  auto store = *Store::open(cfg);
  const auto initial = store->stats()->map_size;
  EXPECT_LE(initial, 2ull << 20);
  for (std::uint64_t i = 0; i < 60; ++i)  // ~6 MB of payload
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i, 100'000))) << i;
  EXPECT_GT(store->stats()->map_size, initial);
  for (std::uint64_t i = 0; i < 60; ++i)
    EXPECT_EQ((*store->get(make_key(i)))->payload, make_payload(i, 100'000));
}

TEST(StoreGrowth, OtherProcessesFollowAResize) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;
  auto store = *Store::open(cfg);
  ASSERT_TRUE(store->put(make_key(0), make_meta(0), make_payload(0)));
  // A separate process grows the map while this one keeps its environment open.
  int rc = test::run_child([&] {
    auto other = Store::open(cfg);
    if (!other) return 1;
    for (std::uint64_t i = 1; i < 40; ++i)
      if (!(*other)->put(make_key(i), make_meta(i), make_payload(i, 100'000))) return 2;
    return 0;
  });
  ASSERT_EQ(rc, 0);
  for (std::uint64_t i = 1; i < 40; ++i) {
    auto got = store->get(make_key(i));
    ASSERT_TRUE(got) << got.error().describe();
    ASSERT_TRUE(got->has_value()) << i;
    EXPECT_EQ((*got)->payload, make_payload(i, 100'000));
  }
  ASSERT_TRUE(store->put(make_key(100), make_meta(100), make_payload(100, 100'000)));
  EXPECT_GE(store->stats()->map_size, 4ull << 20);
}

TEST(StoreGrowth, FullMapAtCeilingIsStorageFullAndHarmless) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path());
  cfg.initial_map_size = 1ull << 20;
  cfg.max_map_size = 2ull << 20;
  auto store = *Store::open(cfg);
  std::uint64_t stored = 0;
  Result<void> r;
  for (; stored < 100; ++stored) {
    r = store->put(make_key(stored), make_meta(stored), make_payload(stored, 100'000));
    if (!r) break;
  }
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::storage_full) << r.error().describe();
  EXPECT_GT(stored, 5u);
  for (std::uint64_t i = 0; i < stored; ++i)
    EXPECT_EQ((*store->get(make_key(i)))->payload, make_payload(i, 100'000));
  EXPECT_EQ(store->stats()->entries, stored);
  // Making room lets puts succeed again.
  ASSERT_TRUE(store->evict({.max_live_bytes = 100'000}));
  auto again = store->put(make_key(stored), make_meta(stored), make_payload(stored, 100'000));
  EXPECT_TRUE(again) << again.error().describe();
}

}  // namespace
}  // namespace cccl_cache
