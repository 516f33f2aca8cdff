#include "cccl_cache/cache/key.hpp"

#include <xxhash.h>

#include <charconv>
#include <cstring>

namespace cccl_cache {
namespace {

void put_be64(std::byte* out, std::uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) out[i] = static_cast<std::byte>(v & 0xff);
}
void put_be32(std::byte* out, std::uint32_t v) {
  for (int i = 3; i >= 0; --i, v >>= 8) out[i] = static_cast<std::byte>(v & 0xff);
}
std::uint64_t get_be(const std::byte* in, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | std::to_integer<std::uint64_t>(in[i]);
  return v;
}
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}
std::optional<std::uint32_t> to_u32(std::string_view s) {
  std::uint32_t v = 0;
  if (!all_digits(s)) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string Digest128::hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[static_cast<std::size_t>(15 - i)] = kDigits[(high >> (4 * i)) & 0xf];
    out[static_cast<std::size_t>(31 - i)] = kDigits[(low >> (4 * i)) & 0xf];
  }
  return out;
}

std::optional<Digest128> Digest128::from_hex(std::string_view text) {
  if (text.size() != 32) return std::nullopt;
  Digest128 d;
  for (std::size_t i = 0; i < 32; ++i) {
    int v = hex_value(text[i]);
    if (v < 0) return std::nullopt;
    std::uint64_t& word = i < 16 ? d.high : d.low;
    word = (word << 4) | static_cast<std::uint64_t>(v);
  }
  return d;
}

Digest128 xxh3_128(std::span<const std::byte> bytes) {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return Digest128{h.high64, h.low64};
}

std::array<std::byte, CacheKey::kEncodedSize> CacheKey::encode() const {
  std::array<std::byte, kEncodedSize> out{};
  put_be64(out.data(), spec.high);
  put_be64(out.data() + 8, spec.low);
  put_be32(out.data() + 16, cc);
  return out;
}

std::optional<CacheKey> CacheKey::decode(std::span<const std::byte> bytes) {
  if (bytes.size() != kEncodedSize) return std::nullopt;
  CacheKey k;
  k.spec.high = get_be(bytes.data(), 8);
  k.spec.low = get_be(bytes.data() + 8, 8);
  k.cc = static_cast<std::uint32_t>(get_be(bytes.data() + 16, 4));
  return k;
}

std::string CacheKey::to_string() const { return spec.hex() + "-sm" + std::to_string(cc); }

std::optional<CacheKey> CacheKey::parse(std::string_view text) {
  if (text.size() < 36 || text.substr(32, 3) != "-sm") return std::nullopt;
  auto digest = Digest128::from_hex(text.substr(0, 32));
  auto cc = to_u32(text.substr(35));
  if (!digest || !cc) return std::nullopt;
  return CacheKey{*digest, *cc};
}

std::optional<std::uint32_t> parse_cc(std::string_view text) {
  if (text.starts_with("sm_"))
    text.remove_prefix(3);
  else if (text.starts_with("sm"))
    text.remove_prefix(2);
  std::optional<std::uint32_t> cc;
  if (auto dot = text.find('.'); dot != std::string_view::npos) {
    auto major = to_u32(text.substr(0, dot));
    auto minor = to_u32(text.substr(dot + 1));
    if (major && minor && *minor < 10 && text.size() - dot - 1 == 1) cc = *major * 10 + *minor;
  } else {
    cc = to_u32(text);
  }
  // Compute capabilities run from 1.0 (10) to well below 100.0; reject nonsense.
  if (!cc || *cc < 10 || *cc > 999) return std::nullopt;
  return cc;
}

}  // namespace cccl_cache
