// A flipped byte in a stored payload is detected, dropped, counted and logged once.
#include <lmdb.h>
#include <spdlog/sinks/ostream_sink.h>

#include <fstream>
#include <functional>
#include <iterator>

#include "cccl_cache/cache/log.hpp"
#include "test_util.hpp"

namespace cccl_cache {
namespace {

// A payload with a marker that occurs nowhere else in data.mdb.
std::vector<std::byte> marked_payload() {
  auto p = test::make_payload(5, 20'000);
  const char marker[] = "FLIP-ME-MARKER-0123456789";
  std::memcpy(p.data() + 10'000, marker, sizeof marker - 1);
  return p;
}

// Flips one byte inside every copy of the marker in dir/data.mdb; returns the copies.
int flip_marker_on_disk(const std::filesystem::path& dir) {
  const auto file = dir / "data.mdb";
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  int found = 0;
  for (auto pos = bytes.find("FLIP-ME-MARKER"); pos != std::string::npos;
       pos = bytes.find("FLIP-ME-MARKER", pos + 1)) {
    bytes[pos + 3] ^= 0x01;
    ++found;
  }
  std::ofstream(file, std::ios::binary | std::ios::in | std::ios::out)
      .write(bytes.data(), std::streamsize(bytes.size()));
  return found;
}

// Captures log output for one test.
struct CapturedLog {
  std::ostringstream text;
  CapturedLog() {
    auto l = std::make_shared<spdlog::logger>(
        "test", std::make_shared<spdlog::sinks::ostream_sink_mt>(text));
    l->set_level(spdlog::level::warn);
    set_logger(l);
  }
  ~CapturedLog() { set_logger(nullptr); }
  int count(const std::string& needle) const {
    int n = 0;
    const std::string s = text.str();
    for (auto p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
    return n;
  }
};

TEST(StoreCorruption, FlippedPayloadByteOnDiskIsAMissAndIsDropped) {
  test::TempDir dir;
  const auto key = test::make_key(5);
  {
    auto store = *Store::open(test::test_config(dir.path()));
    ASSERT_TRUE(store->put(key, test::make_meta(5), marked_payload()));
    ASSERT_TRUE(store->put(test::make_key(6), test::make_meta(6), test::make_payload(6)));
  }
  ASSERT_GE(flip_marker_on_disk(dir.path()), 1);
  CapturedLog log;
  auto store = *Store::open(test::test_config(dir.path()));
  auto got = store->get(key);
  ASSERT_TRUE(got) << got.error().describe();
  EXPECT_FALSE(got->has_value());
  auto s = store->stats();
  EXPECT_EQ(s->corrupt, 1u);
  EXPECT_EQ(s->entries, 1u);  // dropped; the healthy neighbour stays
  EXPECT_EQ(s->live_bytes, test::make_payload(6).size());
  EXPECT_EQ(log.count(key.to_string()), 1);
  EXPECT_FALSE(store->get(key)->has_value());
  EXPECT_EQ(log.count(key.to_string()), 1);  // logged once
  EXPECT_TRUE(store->get(test::make_key(6))->has_value());
  // The slot is reusable.
  ASSERT_TRUE(store->put(key, test::make_meta(5), marked_payload()));
  EXPECT_EQ((*store->get(key))->payload, marked_payload());
}

// Both zero-copy reads see a flipped byte as a miss, never calling back; the entry is
// dropped, counted and logged once. `read(store, key, called)` makes one read.
template <class Read>
void expect_flipped_entry_is_a_silent_miss(Read read) {
  test::TempDir dir;
  const auto key = test::make_key(5);
  {
    auto store = *Store::open(test::test_config(dir.path()));
    ASSERT_TRUE(store->put(key, test::make_meta(5), marked_payload()));
  }
  ASSERT_GE(flip_marker_on_disk(dir.path()), 1);
  CapturedLog log;
  auto store = *Store::open(test::test_config(dir.path()));
  bool called = false;
  Result<bool> hit = read(*store, key, called);
  ASSERT_TRUE(hit) << hit.error().describe();
  EXPECT_FALSE(*hit);
  EXPECT_FALSE(called);
  auto s = store->stats();
  EXPECT_EQ(s->corrupt, 1u);
  EXPECT_EQ(s->misses, 1u);
  EXPECT_EQ(s->entries, 0u);  // dropped
  EXPECT_EQ(log.count(key.to_string()), 1);
}

TEST(StoreCorruption, GetWithSeesAFlippedByteAsAMissWithoutCallingBack) {
  expect_flipped_entry_is_a_silent_miss([](Store& store, const CacheKey& key, bool& called) {
    return store.get_with(key,
                          [&](const EntryMeta&, std::span<const std::byte>) { called = true; });
  });
}

TEST(StoreCorruption, GetPayloadWithSeesAFlippedByteAsAMissWithoutCallingBack) {
  expect_flipped_entry_is_a_silent_miss([](Store& store, const CacheKey& key, bool& called) {
    return store.get_payload_with(key, [&](std::span<const std::byte>) { called = true; });
  });
}

TEST(StoreCorruption, ReadOnlyStoreReportsCorruptionWithoutWriting) {
  test::TempDir dir;
  const auto key = test::make_key(5);
  {
    auto store = *Store::open(test::test_config(dir.path()));
    ASSERT_TRUE(store->put(key, test::make_meta(5), marked_payload()));
  }
  ASSERT_GE(flip_marker_on_disk(dir.path()), 1);
  const auto before = std::filesystem::last_write_time(dir / "data.mdb");
  CapturedLog log;
  auto cfg = test::test_config(dir.path());
  cfg.read_only = true;
  auto store = *Store::open(cfg);
  EXPECT_FALSE(store->get(key)->has_value());
  EXPECT_FALSE(store->peek(key)->has_value());
  EXPECT_EQ(store->stats()->corrupt, 2u);
  EXPECT_EQ(store->stats()->entries, 1u);  // not dropped: read-only
  EXPECT_EQ(log.count(key.to_string()), 1);
  EXPECT_EQ(std::filesystem::last_write_time(dir / "data.mdb"), before);
}

// Rewrites the stored value of `key` with `edit` applied, through LMDB directly.
void edit_raw(const std::filesystem::path& dir, const CacheKey& key,
              const std::function<void(std::vector<char>&)>& edit) {
  MDB_env* env = nullptr;
  ASSERT_EQ(mdb_env_create(&env), 0);
  mdb_env_set_maxdbs(env, 4);
  ASSERT_EQ(mdb_env_open(env, dir.c_str(), 0, 0600), 0);
  MDB_txn* txn = nullptr;
  ASSERT_EQ(mdb_txn_begin(env, nullptr, 0, &txn), 0);
  MDB_dbi dbi = 0;
  ASSERT_EQ(mdb_dbi_open(txn, "entries", 0, &dbi), 0);
  auto k = key.encode();
  MDB_val mk{k.size(), k.data()}, mv{};
  ASSERT_EQ(mdb_get(txn, dbi, &mk, &mv), 0);
  std::vector<char> bytes(static_cast<char*>(mv.mv_data),
                          static_cast<char*>(mv.mv_data) + mv.mv_size);
  edit(bytes);
  MDB_val nv{bytes.size(), bytes.data()};
  ASSERT_EQ(mdb_put(txn, dbi, &mk, &nv, 0), 0);
  ASSERT_EQ(mdb_txn_commit(txn), 0);
  mdb_env_close(env);
}

TEST(StoreCorruption, MalformedEnvelopesFromRawWritesAreMisses) {
  struct Case {
    const char* what;
    std::function<void(std::vector<char>&)> edit;
  };
  const Case cases[] = {
      {"flipped payload byte", [](std::vector<char>& b) { b[b.size() - 10] ^= 0x40; }},
      {"flipped metadata byte", [](std::vector<char>& b) { b[50] ^= 0x01; }},
      {"truncated", [](std::vector<char>& b) { b.resize(b.size() / 2); }},
      {"bad magic", [](std::vector<char>& b) { b[0] = 'X'; }},
      {"empty value", [](std::vector<char>& b) { b.clear(); }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    test::TempDir dir;
    const auto key = test::make_key(3);
    {
      auto store = *Store::open(test::test_config(dir.path()));
      ASSERT_TRUE(store->put(key, test::make_meta(3), test::make_payload(3)));
    }
    edit_raw(dir.path(), key, c.edit);
    auto store = *Store::open(test::test_config(dir.path()));
    auto got = store->get(key);
    ASSERT_TRUE(got);
    EXPECT_FALSE(got->has_value());
    EXPECT_EQ(store->stats()->corrupt, 1u);
    EXPECT_EQ(store->stats()->entries, 0u);
  }
}

TEST(StoreCorruption, OtherFormatVersionIsAMissLeftInPlace) {
  test::TempDir dir;
  const auto key = test::make_key(4);
  {
    auto store = *Store::open(test::test_config(dir.path()));
    ASSERT_TRUE(store->put(key, test::make_meta(4), test::make_payload(4)));
  }
  edit_raw(dir.path(), key, [](std::vector<char>& b) { b[8] = 2; });  // format_version = 2
  auto store = *Store::open(test::test_config(dir.path()));
  EXPECT_FALSE(store->get(key)->has_value());
  EXPECT_EQ(store->stats()->corrupt, 0u);
  EXPECT_EQ(store->stats()->entries, 1u);  // a newer writer's entry is not ours to drop
  ASSERT_TRUE(store->put(key, test::make_meta(4), test::make_payload(4)));  // but a put replaces it
  EXPECT_TRUE(store->get(key)->has_value());
}

}  // namespace
}  // namespace cccl_cache
