// Signatures in the LMDB store: a writer with a signing key signs what it stores, the
// store keeps each signature beside its entry through every write, removal, eviction,
// clear and salvage (no orphan signature, no entry kept unsigned when signatures are
// required), and a reader trusting the key uses the store as a signed image.
#include <gtest/gtest.h>

#include <lmdb.h>

#include <fstream>

#include "cccl_cache/cache/integrity.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "cccl_cache/cache/tiers.hpp"
#include "test_util.hpp"

namespace cccl_cache {
namespace {

using namespace test;
namespace fs = std::filesystem;

std::string sign(const SecretKey& key, std::uint64_t i) {
  return key.sign(make_key(i), signed_fields(make_meta(i)), make_payload(i));
}

std::string stored_signature(Store& store, std::uint64_t i) {
  std::string out = "<absent>";
  auto hit = store.get_signed_with(make_key(i), [&](const EntryMeta&, std::span<const std::byte>,
                                                    std::string_view sig) { out = sig; });
  EXPECT_TRUE(hit) << hit.error().describe();
  return out;
}

std::uint64_t signed_entries(Store& store) {
  auto s = store.stats();
  EXPECT_TRUE(s) << s.error().describe();
  return s ? s->signed_entries : 0;
}

// The secret key written to `dir` (mode 0600), for configs naming it.
fs::path write_key(const SecretKey& key, const fs::path& dir) {
  const auto secret = dir / (key.name() + ".sec");
  EXPECT_TRUE(key.write(secret, dir / (key.name() + ".pub")));
  return secret;
}

TEST(SignedStore, SignatureLivesAndDiesWithItsEntry) {
  TempDir dir;
  auto key = *SecretKey::generate("ci-2026");
  auto store = *Store::open(test_config(dir.path()));
  ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1), sign(key, 1)));
  ASSERT_TRUE(store->put(make_key(2), make_meta(2), make_payload(2), sign(key, 2)));
  ASSERT_TRUE(store->put(make_key(3), make_meta(3), make_payload(3)));
  EXPECT_EQ(stored_signature(*store, 1), sign(key, 1));
  EXPECT_EQ(stored_signature(*store, 3), "");
  auto peeked = store->peek(make_key(2));
  ASSERT_TRUE(peeked && *peeked);
  EXPECT_EQ((*peeked)->signature, sign(key, 2));
  EXPECT_EQ(signed_entries(*store), 2u);

  // An unsigned replacement drops the old signature; remove takes it along.
  ASSERT_TRUE(store->put(make_key(2), make_meta(2), make_payload(2)));
  EXPECT_EQ(stored_signature(*store, 2), "");
  ASSERT_TRUE(*store->remove(make_key(1)));
  EXPECT_EQ(signed_entries(*store), 0u);

  // Eviction and clear too.
  ASSERT_TRUE(store->put(make_key(4), make_meta(4, "reduce"), make_payload(4), "ci-2026:x"));
  EvictCriteria c;
  c.algorithm = "reduce";
  auto evicted = store->evict(c);
  ASSERT_TRUE(evicted) << evicted.error().describe();
  EXPECT_EQ(evicted->removed.size(), 1u);
  EXPECT_EQ(signed_entries(*store), 0u);
  ASSERT_TRUE(store->put(make_key(5), make_meta(5), make_payload(5), sign(key, 5)));
  ASSERT_TRUE(store->clear());
  EXPECT_EQ(signed_entries(*store), 0u);
  auto orphans = store->orphan_signatures();
  ASSERT_TRUE(orphans);
  EXPECT_TRUE(orphans->empty());

  // Bad input: an oversized signature is refused and stores nothing.
  auto big = store->put(make_key(6), make_meta(6), make_payload(6), std::string(5000, 'a'));
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, ErrorCode::invalid_argument);
  EXPECT_FALSE(*store->peek(make_key(6)));
}

TEST(SignedStore, LruTrimTakesSignaturesAlong) {
  TempDir dir;
  Config c = test_config(dir.path());
  c.max_size = 64 * 1024;
  auto store = *Store::open(c);
  for (std::uint64_t i = 1; i <= 12; ++i)
    ASSERT_TRUE(store->put(make_key(i), make_meta(i), make_payload(i, 16 * 1024), "k:sig"));
  auto s = store->stats();
  ASSERT_TRUE(s);
  EXPECT_LT(s->entries, 12u);
  EXPECT_EQ(s->signed_entries, s->entries);
  EXPECT_TRUE(store->orphan_signatures()->empty());
}

// A writer whose config names a signing key signs its local puts; a reader trusting it
// uses that store as an image (accepted, backfilled with the signature); a reader
// trusting another key refuses it and counts the rejection in its own store.
TEST(SignedStore, SigningWriterMakesASignedImage) {
  TempDir keys, image_dir, reader_dir, stranger_dir;
  auto ci = *SecretKey::generate("ci-2026");
  auto other = *SecretKey::generate("other");
  Config w = test_config(image_dir.path());
  w.signing_key = write_key(ci, keys.path()).string();
  {
    auto writer = TierStack::open(w);
    ASSERT_TRUE(writer) << writer.error().describe();
    ASSERT_TRUE((*writer)->put(make_key(1), make_meta(1), make_payload(1)));
  }
  {
    auto image = *Store::open(test_config(image_dir.path()));
    EXPECT_EQ(stored_signature(*image, 1), sign(ci, 1));
  }

  auto accept = [](std::span<const std::byte>) { return true; };
  Config r = test_config(reader_dir.path());
  r.images = {image_dir.path()};
  r.trusted_keys = {ci.public_key().to_text()};
  {
    auto reader = *TierStack::open(r);
    auto hit = reader->get(make_key(1), accept);
    ASSERT_TRUE(hit && *hit);
    EXPECT_EQ(**hit, 1u) << "served by the image";
    EXPECT_EQ(reader->signature_counts().accepted, 1u);
  }
  {
    auto local = *Store::open(test_config(reader_dir.path()));
    EXPECT_EQ(stored_signature(*local, 1), sign(ci, 1)) << "backfilled with its signature";
  }

  Config s = r;
  s.dir = stranger_dir.path();
  s.trusted_keys = {other.public_key().to_text()};
  {
    auto stranger = *TierStack::open(s);
    auto hit = stranger->get(make_key(1), accept);
    ASSERT_TRUE(hit);
    EXPECT_FALSE(*hit);
    EXPECT_EQ(stranger->signature_counts().untrusted_key, 1u);
  }
  auto local = *Store::open(test_config(stranger_dir.path()));
  auto st = local->stats();
  ASSERT_TRUE(st);
  EXPECT_EQ(st->signature_rejections, 1u) << "persisted";
  EXPECT_EQ(st->entries, 0u);
}

// Salvage keeps each entry's signature; with signatures required, an entry without a
// valid one is dropped, never kept unsigned.
TEST(SignedStore, RebuildKeepsSignaturesAndDropsUnsignedWhenRequired) {
  TempDir keys;
  auto ci = *SecretKey::generate("ci-2026");
  const auto secret = write_key(ci, keys.path());
  auto fill = [&](const fs::path& dir) {
    auto store = *Store::open(test_config(dir));
    ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1), sign(ci, 1)));
    ASSERT_TRUE(store->put(make_key(2), make_meta(2), make_payload(2), sign(ci, 2)));
    ASSERT_TRUE(store->put(make_key(3), make_meta(3), make_payload(3)));  // unsigned
    ASSERT_TRUE(store->put(make_key(4), make_meta(4), make_payload(4), sign(ci, 1)));  // moved
  };
  {  // No keys configured: everything kept, each with its own signature.
    TempDir dir;
    fill(dir.path());
    auto report = rebuild_store(test_config(dir.path()));
    ASSERT_TRUE(report) << report.error().describe();
    EXPECT_EQ(report->salvaged, 4u);
    EXPECT_EQ(report->unsigned_dropped, 0u);
    auto store = *Store::open(test_config(dir.path()));
    EXPECT_EQ(stored_signature(*store, 2), sign(ci, 2));
    EXPECT_EQ(stored_signature(*store, 3), "");
    EXPECT_EQ(signed_entries(*store), 3u);
  }
  {  // The signing key configured: only validly signed entries survive.
    TempDir dir;
    fill(dir.path());
    Config c = test_config(dir.path());
    c.signing_key = secret.string();
    auto report = rebuild_store(c);
    ASSERT_TRUE(report) << report.error().describe();
    EXPECT_EQ(report->salvaged, 2u);
    EXPECT_EQ(report->unsigned_dropped, 2u);
    EXPECT_EQ(report->lost, 0u);
    auto store = *Store::open(test_config(dir.path()));
    EXPECT_EQ(stored_signature(*store, 1), sign(ci, 1));
    EXPECT_FALSE(*store->peek(make_key(3)));
    EXPECT_FALSE(*store->peek(make_key(4)));
    EXPECT_EQ(signed_entries(*store), 2u);
    EXPECT_TRUE(store->orphan_signatures()->empty());
  }
}

// A store written before signatures existed (no 'signatures' database) opens read-only
// as an image of unsigned entries, and a writable open adds the database.
TEST(SignedStore, StoreWithoutSignaturesDatabase) {
  TempDir dir;
  {
    MDB_env* env = nullptr;
    ASSERT_EQ(mdb_env_create(&env), 0);
    mdb_env_set_maxdbs(env, 4);
    mdb_env_set_mapsize(env, 1 << 20);
    ASSERT_EQ(mdb_env_open(env, dir.path().c_str(), MDB_NOTLS, 0600), 0);
    MDB_txn* txn = nullptr;
    ASSERT_EQ(mdb_txn_begin(env, nullptr, 0, &txn), 0);
    MDB_dbi dbi;
    for (const char* name : {"entries", "usage", "counters"})
      ASSERT_EQ(mdb_dbi_open(txn, name, MDB_CREATE, &dbi), 0);
    ASSERT_EQ(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
  }
  Config ro = test_config(dir.path());
  ro.read_only = true;
  {
    auto image = Store::open(ro);
    ASSERT_TRUE(image) << image.error().describe();
    EXPECT_EQ(stored_signature(**image, 1), "<absent>");
    EXPECT_EQ(signed_entries(**image), 0u);
  }
  auto store = *Store::open(test_config(dir.path()));
  ASSERT_TRUE(store->put(make_key(1), make_meta(1), make_payload(1), "k:sig"));
  EXPECT_EQ(signed_entries(*store), 1u);
}

}  // namespace
}  // namespace cccl_cache
