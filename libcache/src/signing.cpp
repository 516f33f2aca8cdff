// Ed25519 entry signatures through libsodium: key text, key files, sign and verify.
#include "cccl_cache/cache/signing.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include "cccl_cache/cache/log.hpp"

namespace cccl_cache {
namespace {

constexpr std::string_view kDomain = "cccl-cache entry signature v1";
constexpr std::size_t kMaxKeyFile = 1024;

void ensure_sodium() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (sodium_init() < 0) std::abort();  // no usable randomness: nothing can be signed safely
  });
}

std::string to_base64(std::span<const unsigned char> bytes) {
  std::string out(sodium_base64_encoded_len(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), bytes.data(), bytes.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(std::strlen(out.c_str()));
  return out;
}

// Decodes exactly out.size() bytes of standard base64; false otherwise.
bool from_base64(std::string_view text, std::span<unsigned char> out) {
  std::size_t len = 0;
  const char* end = nullptr;
  return sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &len, &end,
                           sodium_base64_VARIANT_ORIGINAL) == 0 &&
         end == text.data() + text.size() && len == out.size();
}

// Splits "name:base64" and checks the name; `what` names the text in errors.
Result<std::pair<std::string_view, std::string_view>> split_named(std::string_view text,
                                                                  std::string_view what) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    return fail(ErrorCode::invalid_argument,
                std::string(what) + " must be NAME:BASE64 (e.g. from `cccl-cache keygen`)");
  auto name = text.substr(0, colon);
  if (auto ok = check_key_name(name); !ok)
    return fail(ErrorCode::invalid_argument, std::string(what) + ": " + ok.error().message);
  return std::pair{name, text.substr(colon + 1)};
}

// Feeds the fields a signature covers into an Ed25519ph state.
void absorb(crypto_sign_state& st, const CacheKey& key, const EnvelopeFields& fields,
            std::span<const std::byte> payload) {
  auto field = [&](const void* data, std::size_t size) {
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(std::uint64_t(size) >> (8 * i));
    crypto_sign_update(&st, len, sizeof len);
    crypto_sign_update(&st, static_cast<const unsigned char*>(data), size);
  };
  field(kDomain.data(), kDomain.size());
  const auto k = key.encode();
  field(k.data(), k.size());
  field(fields.algorithm.data(), fields.algorithm.size());
  field(fields.summary.data(), fields.summary.size());
  field(fields.toolchain.data(), fields.toolchain.size());
  unsigned char format[4];
  for (int i = 0; i < 4; ++i) format[i] = static_cast<unsigned char>(fields.payload_format >> (8 * i));
  field(format, sizeof format);
  field(payload.data(), payload.size());
}

std::string errno_text() { return std::strerror(errno); }

// Creates `file` with `mode` (never replacing one) and writes `text` to it, synced.
Result<void> write_new(const std::filesystem::path& file, const std::string& text, mode_t mode) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0)
    return fail(errno == EEXIST ? ErrorCode::invalid_argument
                : errno == EACCES ? ErrorCode::permission
                                  : ErrorCode::io,
                errno == EEXIST ? file.string() + " already exists; refusing to overwrite a key"
                                : "cannot create " + file.string() + ": " + errno_text());
  bool ok = ::fchmod(fd, mode) == 0;  // the umask may have narrowed the public key's mode
  ok = ok && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ok && ::fsync(fd) == 0;
  const std::string why = errno_text();
  ::close(fd);
  if (!ok) {
    ::unlink(file.c_str());
    return fail(ErrorCode::io, "cannot write " + file.string() + ": " + why);
  }
  return {};
}

}  // namespace

Result<void> check_key_name(std::string_view name) {
  if (name.empty() || name.size() > 64)
    return fail(ErrorCode::invalid_argument, "a key name must have 1 to 64 characters");
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
      return fail(ErrorCode::invalid_argument,
                  "a key name may hold only letters, digits, '.', '_' and '-'");
  return {};
}

std::string PublicKey::to_text() const { return name + ":" + to_base64(bytes); }

Result<PublicKey> PublicKey::parse(std::string_view text) {
  ensure_sodium();
  CCCL_CACHE_TRY(auto parts, split_named(text, "a public key"));
  PublicKey key;
  key.name = std::string(parts.first);
  if (!from_base64(parts.second, key.bytes))
    return fail(ErrorCode::invalid_argument,
                "public key '" + key.name + "': expected the base64 of 32 bytes");
  return key;
}

Result<SecretKey> SecretKey::generate(std::string_view name) {
  ensure_sodium();
  CCCL_CACHE_CHECK(check_key_name(name));
  SecretKey key;
  key.name_ = std::string(name);
  std::array<unsigned char, 32> pk{};
  crypto_sign_keypair(pk.data(), key.bytes_.data());
  return key;
}

Result<SecretKey> SecretKey::load(const std::filesystem::path& file) {
  ensure_sodium();
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return fail(errno == ENOENT ? ErrorCode::not_found
                : errno == EACCES || errno == ELOOP ? ErrorCode::permission
                                                    : ErrorCode::io,
                "cannot open signing key " + file.string() + ": " + errno_text());
  struct stat st {};
  std::vector<char> text(kMaxKeyFile + 1);
  ssize_t n = -1;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 077) == 0)
    n = ::read(fd, text.data(), text.size());
  ::close(fd);
  auto wipe = [&] { sodium_memzero(text.data(), text.size()); };
  if (!S_ISREG(st.st_mode) || (st.st_mode & 077) != 0) {
    wipe();
    return fail(ErrorCode::permission, "signing key " + file.string() +
                                           " must be a regular file only its owner can read "
                                           "(run `chmod 600 " + file.string() + "`)");
  }
  if (n < 0 || static_cast<std::size_t>(n) > kMaxKeyFile) {
    wipe();
    return fail(ErrorCode::invalid_argument, "signing key " + file.string() + " is not a key file");
  }
  std::string_view body(text.data(), static_cast<std::size_t>(n));
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r' || body.back() == ' '))
    body.remove_suffix(1);
  SecretKey key;
  auto parts = split_named(body, "signing key " + file.string());
  bool ok = parts && from_base64(parts->second, key.bytes_);
  if (ok) key.name_ = std::string(parts->first);
  wipe();
  if (!ok)
    return fail(ErrorCode::invalid_argument,
                "signing key " + file.string() +
                    " is not NAME:BASE64 of a 64-byte Ed25519 secret key (`cccl-cache keygen`)");
  return key;
}

Result<void> SecretKey::write(const std::filesystem::path& secret_file,
                              const std::filesystem::path& public_file) const {
  for (const auto& f : {secret_file, public_file}) {
    struct stat st {};
    if (::lstat(f.c_str(), &st) == 0)
      return fail(ErrorCode::invalid_argument,
                  f.string() + " already exists; refusing to overwrite a key");
  }
  std::string secret = name_ + ":" + to_base64(bytes_) + "\n";
  auto written = write_new(secret_file, secret, 0600);
  sodium_memzero(secret.data(), secret.size());
  if (!written) return written;
  if (auto pub = write_new(public_file, public_key().to_text() + "\n", 0644); !pub) {
    ::unlink(secret_file.c_str());
    return pub;
  }
  return {};
}

SecretKey::SecretKey(SecretKey&& other) noexcept
    : name_(std::move(other.name_)), bytes_(other.bytes_) {
  sodium_memzero(other.bytes_.data(), other.bytes_.size());
}

SecretKey& SecretKey::operator=(SecretKey&& other) noexcept {
  if (this != &other) {
    name_ = std::move(other.name_);
    bytes_ = other.bytes_;
    sodium_memzero(other.bytes_.data(), other.bytes_.size());
  }
  return *this;
}

SecretKey::~SecretKey() { sodium_memzero(bytes_.data(), bytes_.size()); }

PublicKey SecretKey::public_key() const {
  PublicKey key;
  key.name = name_;
  crypto_sign_ed25519_sk_to_pk(key.bytes.data(), bytes_.data());
  return key;
}

std::string SecretKey::sign(const CacheKey& key, const EnvelopeFields& fields,
                            std::span<const std::byte> payload) const {
  crypto_sign_state st;
  crypto_sign_init(&st);
  absorb(st, key, fields, payload);
  std::array<unsigned char, crypto_sign_BYTES> sig{};
  crypto_sign_final_create(&st, sig.data(), nullptr, bytes_.data());
  return name_ + ":" + to_base64(sig);
}

std::string_view to_string(SignatureProblem problem) {
  switch (problem) {
    case SignatureProblem::unsigned_entry:
      return "unsigned";
    case SignatureProblem::malformed:
      return "malformed signature";
    case SignatureProblem::untrusted_key:
      return "signed by an untrusted key";
    case SignatureProblem::bad_signature:
      return "bad signature";
  }
  return "bad signature";
}

Result<TrustSet> TrustSet::from_config(const Config& config) {
  TrustSet set;
  for (const auto& text : config.trusted_keys) {
    CCCL_CACHE_TRY(auto key, PublicKey::parse(text));
    CCCL_CACHE_CHECK(set.add(key));
  }
  return set;
}

Result<void> TrustSet::add(const PublicKey& key) {
  auto [it, inserted] = keys_.try_emplace(key.name, key);
  if (!inserted && it->second.bytes != key.bytes)
    return fail(ErrorCode::invalid_argument,
                "two different trusted keys are named '" + key.name + "'");
  return {};
}

tl::expected<std::string, SignatureProblem> TrustSet::verify(
    const CacheKey& key, const EnvelopeFields& fields, std::span<const std::byte> payload,
    std::optional<std::string_view> signature) const {
  if (!signature || signature->empty()) return tl::unexpected(SignatureProblem::unsigned_entry);
  auto parts = split_named(*signature, "signature");
  std::array<unsigned char, crypto_sign_BYTES> sig{};
  if (!parts || !from_base64(parts->second, sig))
    return tl::unexpected(SignatureProblem::malformed);
  auto it = keys_.find(parts->first);
  if (it == keys_.end()) return tl::unexpected(SignatureProblem::untrusted_key);
  crypto_sign_state st;
  crypto_sign_init(&st);
  absorb(st, key, fields, payload);
  if (crypto_sign_final_verify(&st, sig.data(), it->second.bytes.data()) != 0)
    return tl::unexpected(SignatureProblem::bad_signature);
  return it->first;
}

bool SignatureGate::accept(const CacheKey& key, const EnvelopeFields& fields,
                           std::span<const std::byte> payload,
                           std::optional<std::string_view> signature, std::string_view source) {
  return check(key, fields, payload, signature, source).has_value();
}

tl::expected<std::string, SignatureProblem> SignatureGate::check(
    const CacheKey& key, const EnvelopeFields& fields, std::span<const std::byte> payload,
    std::optional<std::string_view> signature, std::string_view source) {
  if (!trust_.enabled()) return std::string();
  auto signer = trust_.verify(key, fields, payload, signature);
  std::lock_guard lock(mutex_);
  if (signer) {
    ++counts_.accepted;
    return signer;
  }
  const auto reason = signer.error();
  std::uint64_t* counters[] = {&counts_.unsigned_entries, &counts_.malformed,
                               &counts_.untrusted_key, &counts_.bad_signature};
  const auto i = static_cast<std::size_t>(reason);
  ++*counters[i];
  if (!logged_[i]) {
    logged_[i] = true;
    logger()->warn("rejected entry {} from {}: {} (treated as a miss; further such rejections "
                   "are counted, not logged)",
                   key.to_string(), source, to_string(reason));
  }
  return signer;
}

SignatureGate::Counts SignatureGate::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

Result<std::shared_ptr<const SecretKey>> load_signing_key(const Config& config) {
  if (config.signing_key.empty()) return std::shared_ptr<const SecretKey>();
  CCCL_CACHE_TRY(auto key, SecretKey::load(config.signing_key));
  return std::make_shared<const SecretKey>(std::move(key));
}

Result<TrustSet> store_trust(const Config& config) {
  CCCL_CACHE_TRY(auto trust, TrustSet::from_config(config));
  CCCL_CACHE_TRY(auto signer, load_signing_key(config));
  if (signer) CCCL_CACHE_CHECK(trust.add(signer->public_key()));
  return trust;
}

}  // namespace cccl_cache
