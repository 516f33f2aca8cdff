// Store::get_with and get_payload_with, the zero-copy reads: same verification,
// counting and miss rules as get(), the payload viewed in place for the duration of
// the callback.
#include <stdexcept>

#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

TEST(StoreGetWith, HitPassesVerifiedPayloadAndMetadataOnce) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  const auto payload = make_payload(3, 82 * 1024);
  ASSERT_TRUE(store->put(make_key(3), make_meta(3), payload));
  int calls = 0;
  auto hit =
      store->get_with(make_key(3), [&](const EntryMeta& meta, std::span<const std::byte> bytes) {
        ++calls;
        EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), payload.begin(), payload.end()));
        EXPECT_EQ(meta.algorithm, "merge_sort");
        EXPECT_EQ(meta.summary, "keys=float32 entry=3");
        EXPECT_EQ(meta.toolchain, "cuda-13.0+cccl-3.0.1");
        EXPECT_EQ(meta.payload_format, 1u);
        EXPECT_EQ(meta.payload_size, payload.size());
        EXPECT_GT(meta.created_unix, 1'700'000'000);
      });
  ASSERT_TRUE(hit) << hit.error().describe();
  EXPECT_TRUE(*hit);
  EXPECT_EQ(calls, 1);
  auto s = store->stats();
  EXPECT_EQ(s->hits, 1u);  // counted like get(): batched
  EXPECT_EQ(s->misses, 0u);
}

TEST(StoreGetWith, MissReturnsFalseWithoutCallingAndCountsAMiss) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store->put(make_key(1, 80), make_meta(1), make_payload(1)));
  bool called = false;
  auto hit = store->get_with(make_key(1, 90),
                             [&](const EntryMeta&, std::span<const std::byte>) { called = true; });
  ASSERT_TRUE(hit);
  EXPECT_FALSE(*hit);
  EXPECT_FALSE(called);
  EXPECT_EQ(store->stats()->misses, 1u);
}

TEST(StoreGetWith, AgreesWithGetAndCountsHitsIntoUsage) {
  test::TempDir dir;
  {
    auto store = *Store::open(test::test_config(dir.path()));
    for (std::uint64_t i = 0; i < 8; ++i)
      ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i)));
    for (std::uint64_t i = 0; i < 8; ++i) {
      std::vector<std::byte> copy;
      auto hit = store->get_with(make_key(i), [&](const EntryMeta&, std::span<const std::byte> b) {
        copy.assign(b.begin(), b.end());
      });
      ASSERT_TRUE(hit && *hit) << i;
      EXPECT_EQ(copy, (*store->get(make_key(i)))->payload) << i;
    }
  }
  // The handle's destruction flushed both kinds of hit into the usage records.
  auto store = *Store::open(test::test_config(dir.path()));
  EXPECT_EQ(store->stats()->hits, 16u);
  auto got = store->peek(make_key(2));
  ASSERT_TRUE(got && *got);
  EXPECT_EQ((*got)->meta.hits, 2u);
  auto hit = store->get_with(make_key(2), [&](const EntryMeta& meta, std::span<const std::byte>) {
    EXPECT_EQ(meta.hits, 2u);  // metadata includes usage, as get() does
  });
  EXPECT_TRUE(hit && *hit);
}

TEST(StoreGetWith, ExceptionFromCallbackEndsTheTransactionAndPropagates) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store->put(make_key(4), make_meta(4), make_payload(4)));
  for (int i = 0; i < 200; ++i)  // more than the pool keeps: no reader slot may leak
    EXPECT_THROW((void)store->get_with(make_key(4),
                                       [](const EntryMeta&, std::span<const std::byte>) {
                                         throw std::runtime_error("callback failed");
                                       }),
                 std::runtime_error);
  // Writes (which need no open read txn of ours blocking a resize) and reads still work.
  ASSERT_TRUE(store->put(make_key(5), make_meta(5), make_payload(5, 300 * 1024)));
  auto hit = store->get_with(make_key(5), [](const EntryMeta&, std::span<const std::byte>) {});
  ASSERT_TRUE(hit);
  EXPECT_TRUE(*hit);
}

TEST(StoreGetWith, PayloadOnlyReadAgreesWithGetAndCountsLikeIt) {
  test::TempDir dir;
  {
    auto store = *Store::open(test::test_config(dir.path()));
    for (std::uint64_t i = 0; i < 4; ++i)
      ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i, 82 * 1024)));
    for (std::uint64_t i = 0; i < 4; ++i) {
      int calls = 0;
      std::vector<std::byte> copy;
      auto hit = store->get_payload_with(make_key(i), [&](std::span<const std::byte> b) {
        ++calls;
        copy.assign(b.begin(), b.end());
      });
      ASSERT_TRUE(hit && *hit) << i;
      EXPECT_EQ(calls, 1);
      EXPECT_EQ(copy, make_payload(i, 82 * 1024)) << i;
    }
    bool called = false;
    auto miss =
        store->get_payload_with(make_key(9), [&](std::span<const std::byte>) { called = true; });
    ASSERT_TRUE(miss);
    EXPECT_FALSE(*miss);
    EXPECT_FALSE(called);
    auto s = store->stats();
    EXPECT_EQ(s->hits, 4u);
    EXPECT_EQ(s->misses, 1u);
  }
  // Its hits reach the usage records (LRU order, hit counts) like get()'s.
  auto store = *Store::open(test::test_config(dir.path()));
  auto got = store->peek(make_key(1));
  ASSERT_TRUE(got && *got);
  EXPECT_EQ((*got)->meta.hits, 1u);
  EXPECT_GT((*got)->meta.last_used_unix, 1'700'000'000);
}

TEST(StoreGetWith, DisabledStoreAlwaysMisses) {
  test::TempDir dir;
  auto cfg = test::test_config(dir.path() / "never");
  cfg.disabled = true;
  auto store = *Store::open(cfg);
  bool called = false;
  auto hit = store->get_with(make_key(1),
                             [&](const EntryMeta&, std::span<const std::byte>) { called = true; });
  ASSERT_TRUE(hit);
  EXPECT_FALSE(*hit);
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace cccl_cache
