// Signed entries: Ed25519 signatures over key, metadata and payload; tampered, unsigned,
// malformed and wrongly signed entries rejected; key rotation through named keys; key
// files (mode, no overwrite); the trusted keys of the config; the gate's counts.
#include "cccl_cache/cache/signing.hpp"

#include <sys/stat.h>

#include <fstream>

#include "test_util.hpp"

namespace cccl_cache::test {
namespace {

struct Signed {
  CacheKey key = make_key(5);
  EntryMeta meta = make_meta(5);
  std::vector<std::byte> payload = make_payload(5);
  EnvelopeFields fields() const {
    return {meta.algorithm, meta.summary, meta.toolchain, meta.payload_format, 0};
  }
};

SecretKey key_named(const std::string& name) {
  auto k = SecretKey::generate(name);
  if (!k) throw std::runtime_error(k.error().describe());
  return std::move(*k);
}

TrustSet trusting(std::initializer_list<const SecretKey*> keys) {
  TrustSet set;
  for (const auto* k : keys) EXPECT_TRUE(set.add(k->public_key()));
  return set;
}

TEST(Signing, ValidSignatureByATrustedKeyIsAccepted) {
  const auto ci = key_named("ci-2026");
  const Signed e;
  const auto sig = ci.sign(e.key, e.fields(), e.payload);
  EXPECT_EQ(sig.rfind("ci-2026:", 0), 0u) << sig;
  auto signer = trusting({&ci}).verify(e.key, e.fields(), e.payload, sig);
  ASSERT_TRUE(signer);
  EXPECT_EQ(*signer, "ci-2026");
  // The creation time is not covered: a copy made later keeps its signature.
  auto later = e.fields();
  later.created_unix = 1'900'000'000;
  EXPECT_TRUE(trusting({&ci}).verify(e.key, later, e.payload, sig));
}

TEST(Signing, TamperedEntriesAreRejected) {
  const auto ci = key_named("ci");
  const Signed e;
  const auto sig = ci.sign(e.key, e.fields(), e.payload);
  const auto trust = trusting({&ci});
  auto payload = e.payload;
  payload[payload.size() / 2] ^= std::byte{1};
  EXPECT_EQ(trust.verify(e.key, e.fields(), payload, sig).error(), SignatureProblem::bad_signature);
  Signed other_meta = e;
  other_meta.meta.toolchain += "x";
  EXPECT_EQ(trust.verify(e.key, other_meta.fields(), e.payload, sig).error(),
            SignatureProblem::bad_signature);
  other_meta = e;
  other_meta.meta.payload_format = 2;
  EXPECT_EQ(trust.verify(e.key, other_meta.fields(), e.payload, sig).error(),
            SignatureProblem::bad_signature);
  auto moved = e.key;  // the same bytes under another key (another CC)
  moved.cc = 80;
  EXPECT_EQ(trust.verify(moved, e.fields(), e.payload, sig).error(),
            SignatureProblem::bad_signature);
  auto flipped = sig;
  flipped[flipped.size() - 5] = flipped[flipped.size() - 5] == 'A' ? 'B' : 'A';
  EXPECT_EQ(trust.verify(e.key, e.fields(), e.payload, flipped).error(),
            SignatureProblem::bad_signature);
}

TEST(Signing, UnsignedMalformedAndWronglySignedEntriesAreRejected) {
  const auto ci = key_named("ci");
  const auto impostor = key_named("ci");  // another key under the trusted name
  const auto stranger = key_named("stranger");
  const Signed e;
  const auto trust = trusting({&ci});
  EXPECT_EQ(trust.verify(e.key, e.fields(), e.payload, std::nullopt).error(),
            SignatureProblem::unsigned_entry);
  EXPECT_EQ(trust.verify(e.key, e.fields(), e.payload, "").error(),
            SignatureProblem::unsigned_entry);
  for (std::string_view bad : {"ci", "ci:", "ci:!!!!", "ci:AAAA", "bad name:AAAA", ":AAAA"})
    EXPECT_EQ(trust.verify(e.key, e.fields(), e.payload, bad).error(), SignatureProblem::malformed)
        << bad;
  EXPECT_EQ(trust.verify(e.key, e.fields(), e.payload, impostor.sign(e.key, e.fields(), e.payload))
                .error(),
            SignatureProblem::bad_signature);
  EXPECT_EQ(trust.verify(e.key, e.fields(), e.payload, stranger.sign(e.key, e.fields(), e.payload))
                .error(),
            SignatureProblem::untrusted_key);
}

TEST(Signing, RotationTrustsTwoNamedKeysThenDropsTheOld) {
  const auto old_key = key_named("ci-2025");
  const auto new_key = key_named("ci-2026");
  const Signed e;
  const auto old_sig = old_key.sign(e.key, e.fields(), e.payload);
  const auto new_sig = new_key.sign(e.key, e.fields(), e.payload);
  const auto both = trusting({&old_key, &new_key});
  EXPECT_EQ(*both.verify(e.key, e.fields(), e.payload, old_sig), "ci-2025");
  EXPECT_EQ(*both.verify(e.key, e.fields(), e.payload, new_sig), "ci-2026");
  const auto rotated = trusting({&new_key});
  EXPECT_EQ(rotated.verify(e.key, e.fields(), e.payload, old_sig).error(),
            SignatureProblem::untrusted_key);
  EXPECT_TRUE(rotated.verify(e.key, e.fields(), e.payload, new_sig));
  TrustSet clash = trusting({&new_key});
  EXPECT_FALSE(clash.add(key_named("ci-2026").public_key())) << "two keys under one name";
  EXPECT_TRUE(clash.add(new_key.public_key())) << "the same key again is fine";
}

TEST(Signing, KeyFilesRoundTripPrivatelyAndAreNeverOverwritten) {
  TempDir dir;
  const auto ci = key_named("ci");
  ASSERT_TRUE(ci.write(dir / "ci.sec", dir / "ci.pub"));
  struct stat st {};
  ASSERT_EQ(::stat((dir / "ci.sec").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((dir / "ci.pub").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  auto loaded = SecretKey::load(dir / "ci.sec");
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(loaded->name(), "ci");
  std::ifstream pub(dir / "ci.pub");
  std::string text;
  std::getline(pub, text);
  auto public_key = PublicKey::parse(text);
  ASSERT_TRUE(public_key) << public_key.error().describe();
  EXPECT_EQ(public_key->bytes, ci.public_key().bytes);
  EXPECT_EQ(public_key->to_text(), text);
  const Signed e;
  TrustSet trust;
  ASSERT_TRUE(trust.add(*public_key));
  EXPECT_TRUE(trust.verify(e.key, e.fields(), e.payload, loaded->sign(e.key, e.fields(), e.payload)));

  const auto again = key_named("ci");
  auto overwrite = again.write(dir / "ci.sec", dir / "other.pub");
  ASSERT_FALSE(overwrite);
  EXPECT_NE(overwrite.error().message.find("already exists"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "other.pub")) << "nothing written on refusal";
  EXPECT_EQ(SecretKey::load(dir / "ci.sec")->public_key().bytes, ci.public_key().bytes);

  ASSERT_EQ(::chmod((dir / "ci.sec").c_str(), 0644), 0);
  auto exposed = SecretKey::load(dir / "ci.sec");
  ASSERT_FALSE(exposed);
  EXPECT_EQ(exposed.error().code, ErrorCode::permission);
  EXPECT_EQ(SecretKey::load(dir / "absent.sec").error().code, ErrorCode::not_found);
  EXPECT_FALSE(SecretKey::load(dir / "ci.pub")) << "a public key is not a secret key";
}

TEST(Signing, KeyNamesAndTextAreChecked) {
  EXPECT_FALSE(SecretKey::generate(""));
  EXPECT_FALSE(SecretKey::generate("has space"));
  EXPECT_FALSE(SecretKey::generate(std::string(65, 'a')));
  EXPECT_TRUE(SecretKey::generate("Team.ci_2026-a"));
  for (std::string_view bad : {"", "nocolon", "ci:", "ci:AAAA", "c i:AAAA"})
    EXPECT_FALSE(PublicKey::parse(bad)) << bad;
}

TEST(Signing, ConfigNamesTrustedKeysAndTheSigningKey) {
  const auto a = key_named("a"), b = key_named("b");
  const std::string toml = "signing_key = \"/keys/ci.sec\"\ntrusted_keys = [\"" +
                           a.public_key().to_text() + "\", \"" + b.public_key().to_text() + "\"]\n";
  auto config = Config::from_toml(toml);
  ASSERT_TRUE(config) << config.error().describe();
  EXPECT_EQ(config->signing_key, "/keys/ci.sec");
  auto trust = TrustSet::from_config(*config);
  ASSERT_TRUE(trust);
  EXPECT_EQ(trust->size(), 2u);
  auto bad = Config::from_toml("trusted_keys = [\"a:notbase64!\"]\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("trusted_keys"), std::string::npos);
  EXPECT_FALSE(Config::from_toml("trusted_keys = \"a:AAAA\"\n")) << "an array is required";

  ::setenv("CCCL_CACHE_TRUSTED_KEYS", (a.public_key().to_text() + ", " + b.public_key().to_text()).c_str(), 1);
  auto from_env = Config::load(std::filesystem::path("/dev/null"));
  ::unsetenv("CCCL_CACHE_TRUSTED_KEYS");
  ASSERT_TRUE(from_env) << from_env.error().describe();
  EXPECT_EQ(from_env->trusted_keys.size(), 2u);
}

TEST(SignatureGate, CountsEachRejectionAndAcceptsOnlyTrustedSignatures) {
  const auto ci = key_named("ci"), stranger = key_named("stranger");
  const Signed e;
  SignatureGate open_gate{TrustSet{}};
  EXPECT_TRUE(open_gate.accept(e.key, e.fields(), e.payload, std::nullopt, "test"))
      << "no trusted keys: signatures are not required";
  SignatureGate gate{trusting({&ci})};
  EXPECT_TRUE(gate.accept(e.key, e.fields(), e.payload, ci.sign(e.key, e.fields(), e.payload), "t"));
  EXPECT_FALSE(gate.accept(e.key, e.fields(), e.payload, std::nullopt, "t"));
  EXPECT_FALSE(gate.accept(e.key, e.fields(), e.payload, std::nullopt, "t"));
  EXPECT_FALSE(gate.accept(e.key, e.fields(), e.payload,
                           stranger.sign(e.key, e.fields(), e.payload), "t"));
  auto tampered = e.payload;
  tampered[0] ^= std::byte{0x80};
  EXPECT_FALSE(gate.accept(e.key, e.fields(), tampered, ci.sign(e.key, e.fields(), e.payload), "t"));
  const auto c = gate.counts();
  EXPECT_EQ(c.accepted, 1u);
  EXPECT_EQ(c.unsigned_entries, 2u);
  EXPECT_EQ(c.untrusted_key, 1u);
  EXPECT_EQ(c.bad_signature, 1u);
  EXPECT_EQ(c.rejected(), 4u);
}

}  // namespace
}  // namespace cccl_cache::test
