// Round trip, persistence, removal, listing, statistics and the disabled store.
#include <algorithm>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace cccl_cache {
namespace {
using test::make_key;
using test::make_meta;
using test::make_payload;

TEST(Store, RoundTripReturnsPayloadAndMetadata) {
  test::TempDir dir;
  auto store = Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store) << store.error().describe();
  const auto payload = make_payload(7, 400 * 1024);
  ASSERT_TRUE((*store)->put(make_key(7), make_meta(7), payload));
  auto got = (*store)->get(make_key(7));
  ASSERT_TRUE(got) << got.error().describe();
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->payload, payload);
  EXPECT_EQ((*got)->meta.algorithm, "merge_sort");
  EXPECT_EQ((*got)->meta.summary, "keys=float32 entry=7");
  EXPECT_EQ((*got)->meta.toolchain, "cuda-13.0+cccl-3.0.1");
  EXPECT_EQ((*got)->meta.payload_format, 1u);
  EXPECT_EQ((*got)->meta.payload_size, payload.size());
  EXPECT_GT((*got)->meta.created_unix, 1'700'000'000);
  EXPECT_EQ((*got)->key, make_key(7));
}

// put_many: every entry (with its signature) in one transaction, one put request; a bad
// item fails the batch before anything is written; contains() sees what is stored.
TEST(Store, PutManyStoresEveryEntryOrNone) {
  test::TempDir dir;
  auto store = Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store) << store.error().describe();
  std::vector<EntryMeta> metas;
  std::vector<std::vector<std::byte>> payloads;
  for (std::uint64_t i = 0; i < 5; ++i) {
    metas.push_back(make_meta(i));
    payloads.push_back(make_payload(i, 1000 + i));
  }
  std::vector<PutItem> items;
  for (std::uint64_t i = 0; i < 5; ++i)
    items.push_back({make_key(i), &metas[i], payloads[i], i == 2 ? "ci:c2ln" : ""});
  std::vector<PutItem> bad = items;
  const std::string too_long(2000, 'x');
  bad[3].signature = too_long;
  auto refused = (*store)->put_many(bad);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
  for (std::uint64_t i = 0; i < 5; ++i) EXPECT_FALSE(*(*store)->contains(make_key(i))) << i;
  ASSERT_TRUE((*store)->put_many(items));
  for (std::uint64_t i = 0; i < 5; ++i) {
    EXPECT_TRUE(*(*store)->contains(make_key(i))) << i;
    auto got = (*store)->peek(make_key(i));
    ASSERT_TRUE(got && *got) << i;
    EXPECT_EQ((*got)->payload, payloads[i]);
    EXPECT_EQ((*got)->meta.summary, metas[i].summary);
    EXPECT_EQ((*got)->signature, i == 2 ? "ci:c2ln" : "");
  }
  auto stats = (*store)->stats();
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->entries, 5u);
  EXPECT_EQ(stats->puts, 5u);
  EXPECT_EQ(stats->put_requests, 1u) << "the refused batch wrote nothing";
  EXPECT_EQ(stats->signed_entries, 1u);
  std::uint64_t bytes = 0;
  for (const auto& p : payloads) bytes += p.size();
  EXPECT_EQ(stats->live_bytes, bytes);
  EXPECT_TRUE((*store)->put_many({}));  // nothing to write
  ASSERT_TRUE((*store)->put(make_key(9), metas[0], payloads[0]));
  store->reset();
  auto reopened = Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(reopened) << reopened.error().describe();
  stats = (*reopened)->stats();
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->puts, 6u);
  EXPECT_EQ(stats->put_requests, 2u) << "persisted; an empty batch is no request";
}

TEST(Store, MissIsAValueNotAnError) {
  test::TempDir dir;
  auto store = Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store);
  auto got = (*store)->get(make_key(1));
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->has_value());
  // Same digest, other CC: a different key.
  ASSERT_TRUE((*store)->put(make_key(1, 80), make_meta(1), make_payload(1)));
  EXPECT_FALSE((*store)->get(make_key(1, 90))->has_value());
  EXPECT_TRUE((*store)->get(make_key(1, 80))->has_value());
}

TEST(Store, PersistsAcrossReopen) {
  test::TempDir dir;
  {
    auto store = Store::open(test::test_config(dir.path()));
    ASSERT_TRUE(store);
    for (std::uint64_t i = 0; i < 20; ++i)
      ASSERT_TRUE((*store)->put(make_key(i), make_meta(i), make_payload(i)));
  }
  auto store = Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store);
  for (std::uint64_t i = 0; i < 20; ++i) {
    auto got = (*store)->get(make_key(i));
    ASSERT_TRUE(got && got->has_value()) << i;
    EXPECT_EQ((*got)->payload, make_payload(i));
  }
  EXPECT_EQ((*store)->stats()->entries, 20u);
}

TEST(Store, AnotherProcessReadsWhatThisOneWrote) {
  test::TempDir dir;
  // The child writes (fresh process image state: no store opened before the fork).
  int rc = test::run_child([&] {
    auto store = Store::open(test::test_config(dir.path()));
    if (!store) return 1;
    for (std::uint64_t i = 0; i < 10; ++i)
      if (!(*store)->put(make_key(i), make_meta(i), make_payload(i))) return 2;
    return 0;
  });
  ASSERT_EQ(rc, 0);
  auto store = Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store);
  for (std::uint64_t i = 0; i < 10; ++i) {
    auto got = (*store)->get(make_key(i));
    ASSERT_TRUE(got && got->has_value()) << i;
    EXPECT_EQ((*got)->payload, make_payload(i));
  }
  // And the other way round: a child reads what the parent wrote.
  ASSERT_TRUE((*store)->put(make_key(100), make_meta(100), make_payload(100)));
  rc = test::run_child([&] {
    auto again = Store::open(test::test_config(dir.path()));
    if (!again) return 1;
    auto got = (*again)->get(make_key(100));
    return got && got->has_value() && (*got)->payload == make_payload(100) ? 0 : 3;
  });
  EXPECT_EQ(rc, 0);
}

TEST(Store, PutReplacesAndRemoveDeletes) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1, 1000)));
  ASSERT_TRUE(store->put(make_key(1), make_meta(2), make_payload(2, 3000)));
  auto got = store->get(make_key(1));
  ASSERT_TRUE(got && got->has_value());
  EXPECT_EQ((*got)->payload, make_payload(2, 3000));
  auto s = store->stats();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->entries, 1u);
  EXPECT_EQ(s->live_bytes, 3000u);
  EXPECT_EQ(s->puts, 2u);
  EXPECT_EQ(s->bytes_written, 4000u);
  EXPECT_EQ(store->remove(make_key(1)).value(), true);
  EXPECT_EQ(store->remove(make_key(1)).value(), false);
  EXPECT_FALSE(store->get(make_key(1))->has_value());
  EXPECT_EQ(store->stats()->live_bytes, 0u);
}

TEST(Store, ForEachListsEveryEntryInKeyOrder) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  for (std::uint64_t i = 0; i < 15; ++i)
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i)));
  std::vector<CacheKey> keys;
  ASSERT_TRUE(store->for_each([&](const CacheKey& k, const EntryMeta& m) {
    EXPECT_EQ(m.payload_size, make_payload(k.spec.low).size());
    keys.push_back(k);
    return true;
  }));
  EXPECT_EQ(keys.size(), 15u);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end(), [](const CacheKey& a, const CacheKey& b) {
    return a.encode() < b.encode();
  }));
  int seen = 0;
  ASSERT_TRUE(store->for_each([&](const CacheKey&, const EntryMeta&) { return ++seen < 3; }));
  EXPECT_EQ(seen, 3);
}

TEST(Store, HitsAndMissesAreCountedAndPersistedByFlush) {
  test::TempDir dir;
  {
    auto store = *Store::open(test::test_config(dir.path()));
    ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1)));
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(store->get(make_key(1))->has_value());
    for (int i = 0; i < 3; ++i) ASSERT_FALSE(store->get(make_key(2))->has_value());
    auto s = store->stats();  // includes the unflushed batch
    EXPECT_EQ(s->hits, 5u);
    EXPECT_EQ(s->misses, 3u);
    EXPECT_DOUBLE_EQ(s->hit_ratio(), 5.0 / 8.0);
    ASSERT_TRUE(store->peek(make_key(1))->has_value());  // peek counts nothing
    EXPECT_EQ(store->stats()->hits, 5u);
  }
  // Destruction flushed the batch into the store.
  auto store = *Store::open(test::test_config(dir.path()));
  auto s = store->stats();
  EXPECT_EQ(s->hits, 5u);
  EXPECT_EQ(s->misses, 3u);
  std::uint64_t hits = 0;
  ASSERT_TRUE(store->for_each([&](const CacheKey&, const EntryMeta& m) {
    hits = m.hits;
    return true;
  }));
  EXPECT_EQ(hits, 5u);
}

TEST(Store, HitsDoNotWriteUntilFlush) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1)));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(store->get(make_key(1))->has_value());
  // A second process sees only persisted counters: nothing yet (interval is 60 s).
  auto persisted_hits = [&] {
    return test::run_child([&] {
      auto other = Store::open(test::test_config(dir.path()));
      return other ? static_cast<int>((*other)->stats()->hits) : 100;
    });
  };
  EXPECT_EQ(persisted_hits(), 0);
  ASSERT_TRUE(store->flush());
  EXPECT_EQ(persisted_hits(), 4);
}

TEST(Store, ClearRemovesEverything) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  for (std::uint64_t i = 0; i < 5; ++i)
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i)));
  ASSERT_TRUE(store->clear());
  auto s = store->stats();
  EXPECT_EQ(s->entries, 0u);
  EXPECT_EQ(s->live_bytes, 0u);
  EXPECT_EQ(s->puts, 0u);
  EXPECT_FALSE(store->get(make_key(0))->has_value());
  ASSERT_TRUE(store->put(make_key(0), make_meta(0), make_payload(0)));
  EXPECT_TRUE(store->get(make_key(0))->has_value());
}

TEST(Store, DisabledStoreMissesAndCreatesNoFiles) {
  test::TempDir dir;
  auto cfg = test::test_config(dir / "sub");
  cfg.disabled = true;
  auto store = Store::open(cfg);
  ASSERT_TRUE(store);
  EXPECT_TRUE((*store)->put(make_key(1), make_meta(1), make_payload(1)));
  EXPECT_FALSE((*store)->get(make_key(1))->has_value());
  EXPECT_FALSE(std::filesystem::exists(dir / "sub"));
}

TEST(Store, OpeningTwiceSharesOneEnvironment) {
  test::TempDir dir;
  auto a = *Store::open(test::test_config(dir.path()));
  // A different spelling of the same directory.
  auto b = *Store::open(test::test_config(dir.path() / "." / ""));
  ASSERT_TRUE(a->put(make_key(1), make_meta(1), make_payload(1)));
  EXPECT_TRUE(b->get(make_key(1))->has_value());
  EXPECT_EQ(b->stats()->hits, 1u);  // the pending batch is per environment
}

TEST(Store, OversizedMetadataIsRejected) {
  test::TempDir dir;
  auto store = *Store::open(test::test_config(dir.path()));
  auto meta = make_meta(1);
  meta.summary.assign(70'000, 'x');
  auto r = store->put(make_key(1), meta, make_payload(1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace cccl_cache
