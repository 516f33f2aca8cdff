#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cccl_cache/cache/envelope.hpp"

namespace cccl_cache {
namespace {

std::vector<std::byte> encode(const EnvelopeFields& f, std::span<const std::byte> payload) {
  std::vector<std::byte> out(*envelope_size(f, payload.size()));
  encode_envelope(out, f, payload);
  return out;
}

std::vector<std::byte> sample_payload() {
  std::vector<std::byte> p(300);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = std::byte(i * 7);
  return p;
}

TEST(Envelope, RoundTrips) {
  EnvelopeFields f{"merge_sort", "keys=float32", "tc-1", 3, 1'800'000'000};
  auto payload = sample_payload();
  auto bytes = encode(f, payload);
  EXPECT_EQ(bytes.size(), 48u + 6 + 10 + 12 + 4 + payload.size());
  EXPECT_EQ(std::memcmp(bytes.data(), "CCCLKENV", 8), 0);
  auto v = decode_envelope(bytes);
  ASSERT_TRUE(v) << v.error().describe();
  EXPECT_EQ(v->fields.algorithm, "merge_sort");
  EXPECT_EQ(v->fields.summary, "keys=float32");
  EXPECT_EQ(v->fields.toolchain, "tc-1");
  EXPECT_EQ(v->fields.payload_format, 3u);
  EXPECT_EQ(v->fields.created_unix, 1'800'000'000);
  EXPECT_TRUE(std::equal(v->payload.begin(), v->payload.end(), payload.begin(), payload.end()));
}

TEST(Envelope, EmptyPayloadAndFieldsRoundTrip) {
  auto bytes = encode({}, {});
  auto v = decode_envelope(bytes);
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->payload.empty());
  EXPECT_TRUE(v->fields.algorithm.empty());
}

TEST(Envelope, EveryFlippedByteIsDetected) {
  auto payload = sample_payload();
  const auto good = encode({"a", "b", "c", 1, 2}, payload);
  for (std::size_t i = 0; i < good.size(); ++i) {
    auto bad = good;
    bad[i] ^= std::byte{0x10};
    auto v = decode_envelope(bad);
    ASSERT_FALSE(v) << "flip at offset " << i << " went unnoticed";
    // The version field reads as another format; everything else is corruption.
    if (i < 8 || i >= 12) {
      EXPECT_EQ(v.error().code, ErrorCode::corrupt) << i;
    }
  }
}

TEST(Envelope, TruncationAndExtensionAreDetected) {
  auto good = encode({"a", "b", "c", 1, 2}, sample_payload());
  for (std::size_t n :
       {std::size_t{0}, std::size_t{10}, std::size_t{47}, std::size_t{48}, good.size() - 1}) {
    std::vector<std::byte> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_FALSE(decode_envelope(cut)) << n;
  }
  auto longer = good;
  longer.push_back(std::byte{0});
  EXPECT_FALSE(decode_envelope(longer));
}

TEST(Envelope, OtherVersionIsAFormatError) {
  auto bytes = encode({"a", "b", "c", 1, 2}, sample_payload());
  std::uint32_t v2 = 2;
  std::memcpy(bytes.data() + 8, &v2, 4);
  auto v = decode_envelope(bytes);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, ErrorCode::format);
}

TEST(Envelope, StructureOnlyDecodeSkipsChecksum) {
  auto bytes = encode({"a", "b", "c", 1, 2}, sample_payload());
  bytes.back() ^= std::byte{1};
  EXPECT_FALSE(decode_envelope(bytes));
  EXPECT_TRUE(decode_envelope(bytes, /*verify_checksum=*/false));
}

TEST(Envelope, OversizedFieldIsRejected) {
  std::string big(70'000, 'x');
  auto r = envelope_size({"a", big, "c", 0, 0}, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace cccl_cache
