// Signed entries (Ed25519, libsodium). A cache entry is code that reaches the GPU: an
// entry that comes from a place other people can write (a shared tier, an image on a
// shared filesystem, an archive) is accepted only with a valid signature by a key the
// reader trusts. Keys are named, so that readers can trust an old and a new key at
// once while writers move to the new one (rotation), as Nix binary caches do.
//
// Formats (text, so they go in config files, environment variables and Redis as is):
//   public key  := name ":" base64(32-byte Ed25519 public key)
//   secret key  := name ":" base64(64-byte Ed25519 secret key)      (a file, mode 0600)
//   signature   := name ":" base64(64-byte Ed25519ph signature)     (the signer's key name)
//   name        := 1..64 of [A-Za-z0-9._-]
// A signature is detached: it travels beside the entry (an archive entry's signature
// field, a tier's signature record) and covers, as Ed25519ph (SHA-512 pre-hash) over
// tagged, length-delimited fields: a domain string, the key (digest and CC), the
// envelope's algorithm, summary, toolchain and payload format, and the payload. The
// envelope's creation time is not covered: copying an entry between tiers keeps its
// signature valid.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/key.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache {

struct PublicKey {
  std::string name;
  std::array<unsigned char, 32> bytes{};

  std::string to_text() const;
  // Parses "name:base64"; invalid_argument saying what is wrong.
  static Result<PublicKey> parse(std::string_view text);
};

// An Ed25519 secret key; its bytes are wiped when it is destroyed. Move-only.
class SecretKey {
 public:
  // A fresh key pair named `name`; invalid_argument for a bad name.
  static Result<SecretKey> generate(std::string_view name);
  // Reads a secret key file. Errors: not_found, permission (readable by others than its
  // owner: mode must be 0600 or 0400), invalid_argument (malformed; the message never
  // quotes the file).
  static Result<SecretKey> load(const std::filesystem::path& file);
  // Writes the secret key to `secret_file` (mode 0600) and its public key to
  // `public_file` (0644), each created anew: an existing file is never overwritten
  // (invalid_argument naming it). Errors: io, permission.
  Result<void> write(const std::filesystem::path& secret_file,
                     const std::filesystem::path& public_file) const;

  SecretKey(SecretKey&& other) noexcept;
  SecretKey& operator=(SecretKey&& other) noexcept;
  SecretKey(const SecretKey&) = delete;
  SecretKey& operator=(const SecretKey&) = delete;
  ~SecretKey();

  const std::string& name() const { return name_; }
  PublicKey public_key() const;
  // The signature text of an entry (see the top of this file).
  std::string sign(const CacheKey& key, const EnvelopeFields& fields,
                   std::span<const std::byte> payload) const;

 private:
  SecretKey() = default;
  std::string name_;
  std::array<unsigned char, 64> bytes_{};
};

// The envelope fields a signature covers, from an entry's metadata (views into `meta`).
inline EnvelopeFields signed_fields(const EntryMeta& meta) {
  return {meta.algorithm, meta.summary, meta.toolchain, meta.payload_format, 0};
}

// Why a signature check failed (counted per reason by callers).
enum class SignatureProblem { unsigned_entry, malformed, untrusted_key, bad_signature };
std::string_view to_string(SignatureProblem problem);

// The public keys a reader trusts, by name. Immutable once built; thread-safe to share.
class TrustSet {
 public:
  TrustSet() = default;
  // The keys of config.trusted_keys. Errors: invalid_argument (a malformed key, or two
  // different keys under one name).
  static Result<TrustSet> from_config(const Config& config);
  // Adds `key`; invalid_argument if another key of the same name is there.
  Result<void> add(const PublicKey& key);

  // Whether signatures are required: true once a key is trusted.
  bool enabled() const { return !keys_.empty(); }
  std::size_t size() const { return keys_.size(); }

  // Checks `signature` (null: none) on the entry. Returns the signer's key name, or the
  // problem: unsigned_entry, malformed, untrusted_key (a well-formed signature by a key
  // not trusted here), bad_signature (a trusted name, but the bytes were not signed by
  // it: a tampered entry or a forged name).
  tl::expected<std::string, SignatureProblem> verify(const CacheKey& key,
                                                     const EnvelopeFields& fields,
                                                     std::span<const std::byte> payload,
                                                     std::optional<std::string_view> signature) const;

 private:
  std::map<std::string, PublicKey, std::less<>> keys_;
};

// The check an entry from outside passes before anything parses its payload (the tier
// stack's shared tiers and images, archive import): accept() with signatures required
// only when the trust set is enabled. Each rejection is counted by reason and the first
// of each reason is logged (a warning naming the source and the key); the caller treats
// a rejected entry as a miss. Thread-safe.
class SignatureGate {
 public:
  struct Counts {
    std::uint64_t accepted = 0;  // with a valid signature (not counted when not enabled)
    std::uint64_t unsigned_entries = 0, malformed = 0, untrusted_key = 0, bad_signature = 0;
    std::uint64_t rejected() const {
      return unsigned_entries + malformed + untrusted_key + bad_signature;
    }
  };

  explicit SignatureGate(TrustSet trust) : trust_(std::move(trust)) {}
  bool enabled() const { return trust_.enabled(); }
  const TrustSet& trust() const { return trust_; }

  // True when the entry may be used: signatures not required, or a valid one by a
  // trusted key. `source` names where it came from in the log ("archive x.cccl",
  // "redis://host:6379/0").
  bool accept(const CacheKey& key, const EnvelopeFields& fields, std::span<const std::byte> payload,
              std::optional<std::string_view> signature, std::string_view source);
  // accept() that returns the reason of a rejection (the signer's name when accepted;
  // "" when signatures are not required). Counts and logs as accept().
  tl::expected<std::string, SignatureProblem> check(const CacheKey& key,
                                                    const EnvelopeFields& fields,
                                                    std::span<const std::byte> payload,
                                                    std::optional<std::string_view> signature,
                                                    std::string_view source);
  Counts counts() const;

 private:
  TrustSet trust_;
  mutable std::mutex mutex_;
  Counts counts_;
  bool logged_[4] = {};
};

// The secret key named by config.signing_key, or null when none is configured.
// Errors as SecretKey::load.
Result<std::shared_ptr<const SecretKey>> load_signing_key(const Config& config);

// The keys a store's own signatures are checked with (verify, rebuild_store): the
// config's trusted keys and the public key of its signing key. Signatures are required
// of a store's entries once this is enabled. Errors: as from_config and load_signing_key.
Result<TrustSet> store_trust(const Config& config);

// Checks a key name (1..64 of [A-Za-z0-9._-]); invalid_argument otherwise.
Result<void> check_key_name(std::string_view name);

}  // namespace cccl_cache
