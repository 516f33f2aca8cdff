// The map grows past its initial size and other processes follow.
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

// The map at its ceiling: see test_store_faults.cpp (LRU eviction under the budget,
// storage_full while a reader pins it or for an entry that never fits).

}  // namespace
}  // namespace cccl_cache
