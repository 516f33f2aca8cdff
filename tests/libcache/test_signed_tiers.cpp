// Signed entries in the tier stack: with trusted keys, an entry from the remote (a real
// redis-server) or an image is used only with a valid signature by a trusted key,
// checked before the caller's accept() sees its payload; unsigned, tampered, otherwise
// signed and moved entries are rejected, counted and never backfilled. A writer with a
// signing key signs what it publishes.
#include <gtest/gtest.h>

#include <algorithm>

#include "cccl_cache/cache/signing.hpp"
#include "cccl_cache/cache/tiers.hpp"
#include "redis_server.hpp"
#include "redis_test_util.hpp"
#include "test_util.hpp"

namespace cccl_cache {
namespace {

using namespace test;

struct Keys {
  std::shared_ptr<const SecretKey> ci = std::make_shared<const SecretKey>(*SecretKey::generate("ci-2026"));
  SecretKey rogue = *SecretKey::generate("rogue");
  // A key under the trusted name that is not the trusted key (a forged name).
  SecretKey impostor = *SecretKey::generate("ci-2026");
};

std::shared_ptr<SignatureGate> gate_trusting(const PublicKey& key) {
  TrustSet trust;
  EXPECT_TRUE(trust.add(key));
  return std::make_shared<SignatureGate>(std::move(trust));
}

std::string sign(const SecretKey& key, std::uint64_t i, std::span<const std::byte> payload) {
  return key.sign(make_key(i), signed_fields(make_meta(i)), payload);
}

// Publishes, into `shared`, one entry of each kind: 1 signed by the writer's stack (its
// signing key), 2 unsigned, 3 signed by an untrusted key, 4 tampered (payload changed
// after signing), 5 a forged signature under the trusted name, 6 entry 1's valid
// signature moved onto another key, 7 a malformed signature.
void publish_every_kind(Tier& shared, const Keys& keys, TierStack& writer) {
  ASSERT_TRUE(writer.put(make_key(1), make_meta(1), make_payload(1, 4096)));
  const auto p = [](std::uint64_t i) { return make_payload(i, 4096); };
  ASSERT_TRUE(shared.put(make_key(2), make_meta(2), p(2)));
  ASSERT_TRUE(shared.put_signed(make_key(3), make_meta(3), p(3), sign(keys.rogue, 3, p(3))));
  auto tampered = p(4);
  const std::string signature4 = sign(*keys.ci, 4, tampered);
  tampered[100] ^= std::byte{1};
  ASSERT_TRUE(shared.put_signed(make_key(4), make_meta(4), tampered, signature4));
  ASSERT_TRUE(shared.put_signed(make_key(5), make_meta(5), p(5), sign(keys.impostor, 5, p(5))));
  ASSERT_TRUE(shared.put_signed(make_key(6), make_meta(6), p(1), sign(*keys.ci, 1, p(1))));
  ASSERT_TRUE(shared.put_signed(make_key(7), make_meta(7), p(7), "ci-2026:not base64!"));
}

// A reader trusting only `ci` takes entry 1 alone; accept() never sees the others and
// none of them reaches its local tier.
void expect_only_the_signed_entry(TierStack& reader) {
  int accepted = 0;
  auto accept = [&](std::span<const std::byte>) { return ++accepted > 0; };
  for (std::uint64_t i = 1; i <= 7; ++i) {
    auto hit = reader.get(make_key(i), accept);
    ASSERT_TRUE(hit) << hit.error().describe();
    EXPECT_EQ(hit->has_value(), i == 1) << "entry " << i;
    EXPECT_EQ(*reader.local()->get_payload_with(make_key(i), [](std::span<const std::byte>) {}),
              i == 1)
        << "entry " << i;
  }
  EXPECT_EQ(accepted, 1);
  const auto c = reader.signature_counts();
  EXPECT_EQ(c.accepted, 1u);
  EXPECT_EQ(c.unsigned_entries, 1u);
  EXPECT_EQ(c.untrusted_key, 1u);
  EXPECT_EQ(c.bad_signature, 3u);  // tampered, forged, moved
  EXPECT_EQ(c.malformed, 1u);
}

// A Redis holding every kind of entry, and a reader of it (trusting nothing yet).
struct SharedRedis {
  RedisServer server;
  Keys keys;
  std::unique_ptr<TierStack> reader;
  SharedRedis() {
    TierStack writer(make_memory_tier(), {}, open_remote(remote_config(server.url())));
    writer.set_signing(nullptr, keys.ci);
    auto shared = open_remote(remote_config(server.url()));
    publish_every_kind(*shared, keys, writer);
    reader = std::make_unique<TierStack>(make_memory_tier(), std::vector<std::unique_ptr<Tier>>{},
                                         std::move(shared));
  }
  void trust_ci() { reader->set_signing(gate_trusting(keys.ci->public_key()), nullptr); }
};

TEST(SignedTiers, RemoteEntriesNeedATrustedSignature) {
  CCCL_CACHE_REQUIRE_REDIS();
  SharedRedis redis;
  redis.trust_ci();
  expect_only_the_signed_entry(*redis.reader);
}

TEST(SignedTiers, BatchedFetchChecksSignaturesToo) {
  CCCL_CACHE_REQUIRE_REDIS();
  SharedRedis redis;
  redis.trust_ci();
  TierStack& reader = *redis.reader;
  std::vector<CacheKey> wanted;
  for (std::uint64_t i = 1; i <= 7; ++i) wanted.push_back(make_key(i));
  int accepted = 0;
  const auto served = reader.fetch_many(
      wanted, [&](std::size_t, std::span<const std::byte>) { return ++accepted > 0; });
  EXPECT_EQ(std::ranges::count_if(served, [](const auto& t) { return t.has_value(); }), 1);
  EXPECT_EQ(accepted, 1);
  EXPECT_EQ(reader.signature_counts().rejected(), 6u);
}

// Without trusted keys nothing is required: every intact entry is used, and a signed
// value still reads back as the entry it is.
TEST(SignedTiers, NoTrustedKeysAcceptsUnsignedAndSigned) {
  CCCL_CACHE_REQUIRE_REDIS();
  SharedRedis redis;
  TierStack& reader = *redis.reader;
  for (std::uint64_t i : {1, 2, 3}) {
    std::vector<std::byte> got;
    auto hit = reader.get(make_key(i), [&](std::span<const std::byte> p) {
      got.assign(p.begin(), p.end());
      return true;
    });
    ASSERT_TRUE(hit && *hit) << i;
    EXPECT_EQ(got, make_payload(i, 4096));
  }
}

// An image tier (any read-only tier searched before the remote) is gated the same way.
TEST(SignedTiers, ImageEntriesNeedATrustedSignature) {
  Keys keys;
  auto image = make_memory_tier();
  Tier* shared = image.get();
  TierStack writer(make_memory_tier(), {}, make_memory_tier());
  writer.set_signing(nullptr, keys.ci);
  std::vector<std::unique_ptr<Tier>> images;
  images.push_back(std::move(image));
  // Entry 1 as the writer signs it, copied into the image with its signature.
  ASSERT_TRUE(writer.put(make_key(1), make_meta(1), make_payload(1, 4096)));
  ASSERT_TRUE(*writer.remote()->get_signed_with(
      make_key(1), [&](const EntryMeta& m, std::span<const std::byte> p, std::string_view sig) {
        EXPECT_FALSE(sig.empty());
        EXPECT_TRUE(shared->put_signed(make_key(1), m, p, sig));
      }));
  TierStack scratch(make_memory_tier(), {}, nullptr);
  publish_every_kind(*shared, keys, scratch);  // scratch publishes nowhere: 1 stays as copied
  TierStack reader(make_memory_tier(), std::move(images), nullptr);
  reader.set_signing(gate_trusting(keys.ci->public_key()), nullptr);
  expect_only_the_signed_entry(reader);
}

// The config wires it: trusted_keys gate the shared tiers of TierStack::open. A real
// LMDB image keeps no signatures, so with a key trusted its entries are refused.
TEST(SignedTiers, ConfiguredTrustRefusesUnsignedLmdbImages) {
  TempDir image_dir, local_dir;
  {
    auto image = Store::open(test_config(image_dir.path()));
    ASSERT_TRUE(image) << image.error().describe();
    ASSERT_TRUE((*image)->put(make_key(1), make_meta(1), make_payload(1)));
  }
  Config c = test_config(local_dir.path());
  c.images = {image_dir.path()};
  auto open_reader = [&] {
    auto stack = TierStack::open(c);
    EXPECT_TRUE(stack) << stack.error().describe();
    return stack ? *stack : nullptr;
  };
  auto accept = [](std::span<const std::byte>) { return true; };
  {
    auto trusting_nobody = open_reader();
    EXPECT_TRUE(*trusting_nobody->get(make_key(1), accept)) << "no keys: the image is used";
  }
  TempDir other_local;
  c.dir = other_local.path();
  Keys keys;
  c.trusted_keys = {keys.ci->public_key().to_text()};
  auto trusting_ci = open_reader();
  EXPECT_FALSE(*trusting_ci->get(make_key(1), accept));
  EXPECT_EQ(trusting_ci->signature_counts().unsigned_entries, 1u);
}

}  // namespace
}  // namespace cccl_cache
