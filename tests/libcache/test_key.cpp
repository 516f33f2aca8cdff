#include <gtest/gtest.h>

#include <cstring>

#include "cccl_cache/cache/key.hpp"

namespace cccl_cache {
namespace {

TEST(Digest128, HexRoundTrips) {
  Digest128 d{0x0123456789abcdefull, 0xfedcba9876543210ull};
  EXPECT_EQ(d.hex(), "0123456789abcdeffedcba9876543210");
  EXPECT_EQ(Digest128::from_hex(d.hex()), d);
  EXPECT_EQ(Digest128::from_hex("0123456789ABCDEFFEDCBA9876543210"), d);
}

TEST(Digest128, FromHexRejectsBadText) {
  for (const char* bad :
       {"", "0123", "0123456789abcdeffedcba987654321", "0123456789abcdeffedcba98765432100",
        "0123456789abcdeffedcba987654321g", " 123456789abcdeffedcba9876543210"})
    EXPECT_FALSE(Digest128::from_hex(bad)) << bad;
}

TEST(Xxh3, IsStableAndSensitive) {
  const char text[] = "merge_sort|keys=float32";
  auto bytes = std::as_bytes(std::span(text, std::strlen(text)));
  EXPECT_EQ(xxh3_128(bytes), xxh3_128(bytes));
  EXPECT_NE(xxh3_128(bytes), xxh3_128(bytes.first(bytes.size() - 1)));
  // Known value of XXH3-128 for the empty input (xxHash's reference test vector).
  auto empty = xxh3_128({});
  EXPECT_EQ(empty.high, 0x99aa06d3014798d8ull);
  EXPECT_EQ(empty.low, 0x6001c324468d497full);
}

TEST(CacheKey, EncodeIsBigEndianAndDecodes) {
  CacheKey k{Digest128{0x0102030405060708ull, 0x090a0b0c0d0e0f10ull}, 90};
  auto e = k.encode();
  EXPECT_EQ(e[0], std::byte{0x01});
  EXPECT_EQ(e[15], std::byte{0x10});
  EXPECT_EQ(e[19], std::byte{90});
  EXPECT_EQ(CacheKey::decode(e), k);
  EXPECT_FALSE(CacheKey::decode(std::span(e).first(19)));
}

TEST(CacheKey, EncodingSortsByDigestThenCc) {
  CacheKey a{Digest128{1, 0}, 120}, b{Digest128{1, 1}, 50}, c{Digest128{1, 1}, 90};
  EXPECT_LT(a.encode(), b.encode());
  EXPECT_LT(b.encode(), c.encode());
}

TEST(CacheKey, TextRoundTrips) {
  CacheKey k{Digest128{0xabcull, 0xdefull}, 90};
  EXPECT_EQ(k.to_string(), "0000000000000abc0000000000000def-sm90");
  EXPECT_EQ(CacheKey::parse(k.to_string()), k);
  for (const char* bad :
       {"", "0000000000000abc0000000000000def", "0000000000000abc0000000000000def-sm",
        "0000000000000abc0000000000000def-90", "0000000000000abc0000000000000def-smx",
        "0000000000000abc0000000000000deX-sm90", "0000000000000abc0000000000000def-sm9 0"})
    EXPECT_FALSE(CacheKey::parse(bad)) << bad;
}

TEST(ParseCc, AcceptsCommonSpellings) {
  struct Case {
    const char* text;
    std::optional<std::uint32_t> cc;
  };
  for (Case c :
       {Case{"sm_90", 90}, Case{"sm90", 90}, Case{"90", 90}, Case{"9.0", 90}, Case{"12.0", 120},
        Case{"sm_100", 100}, Case{"", std::nullopt}, Case{"sm_", std::nullopt},
        Case{"9.", std::nullopt}, Case{"9.10", std::nullopt}, Case{"abc", std::nullopt},
        Case{"5", std::nullopt}, Case{"-90", std::nullopt}, Case{"99999", std::nullopt}})
    EXPECT_EQ(parse_cc(c.text), c.cc) << c.text;
}

}  // namespace
}  // namespace cccl_cache
