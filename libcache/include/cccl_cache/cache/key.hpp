// Cache keys: a 128-bit digest of an algorithm spec (computed by the caller,
// XXH3-128 over canonical spec bytes) plus the target compute capability.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cccl_cache {

struct Digest128 {
  std::uint64_t high = 0;
  std::uint64_t low = 0;

  // 32 lower-case hex digits, high word first.
  std::string hex() const;
  // Parses exactly 32 hex digits; nullopt on anything else.
  static std::optional<Digest128> from_hex(std::string_view text);

  auto operator<=>(const Digest128&) const = default;
};

// XXH3-128 of `bytes`. Stable across processes, hosts and releases of xxHash.
Digest128 xxh3_128(std::span<const std::byte> bytes);

// Compute capability as major*10+minor (sm_90 -> 90).
struct CacheKey {
  Digest128 spec;
  std::uint32_t cc = 0;

  static constexpr std::size_t kEncodedSize = 20;
  // Fixed-size big-endian encoding used as the LMDB key (sorts by digest, then CC).
  std::array<std::byte, kEncodedSize> encode() const;
  static std::optional<CacheKey> decode(std::span<const std::byte> bytes);

  // "<32 hex digits>-sm<cc>", e.g. "0f3a...e1-sm90"; parse() accepts that form.
  std::string to_string() const;
  static std::optional<CacheKey> parse(std::string_view text);

  auto operator<=>(const CacheKey&) const = default;
};

struct CacheKeyHash {
  std::size_t operator()(const CacheKey& k) const noexcept {
    return static_cast<std::size_t>(k.spec.low ^ (k.spec.high * 31) ^ k.cc);
  }
};

// "sm_90" / "sm90" / "90" / "9.0" -> 90; nullopt on anything else.
std::optional<std::uint32_t> parse_cc(std::string_view text);

}  // namespace cccl_cache
