// The on-disk value format of the store: one envelope per entry.
//
// Grammar (all integers little-endian; sizes in bytes):
//
//   envelope  := header metadata payload
//   header    := magic:u8[8]          "CCCLKENV"
//                format_version:u32   kEnvelopeVersion (1)
//                metadata_size:u32    size of `metadata`
//                payload_size:u64     size of `payload`
//                created_unix:i64     seconds since the epoch, set by put()
//                payload_format:u32   the producer's payload format version
//                flags:u32            0 (reserved; any other value is malformed)
//                checksum:u64         XXH3-64 (seed 0) of header bytes [0, 40) ++ metadata ++
//                payload
//   metadata  := field(algorithm) field(summary) field(toolchain)
//   field     := length:u16 bytes:u8[length]      (UTF-8, no terminator)
//   payload   := u8[payload_size]                 (a serialized build result)
//
// The total value size must equal 48 + metadata_size + payload_size exactly.
// The checksum covers every byte of the envelope except itself, so any flipped bit
// is detected. Last-use stamps and hit counts are NOT in the envelope: they live in
// the store's separate "usage" sub-database so that touching them never rewrites a
// payload.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache {

inline constexpr char kEnvelopeMagic[8] = {'C', 'C', 'C', 'L', 'K', 'E', 'N', 'V'};
inline constexpr std::uint32_t kEnvelopeVersion = 1;
inline constexpr std::size_t kMaxMetaField = 0xffff;

struct EnvelopeHeader {
  char magic[8];
  std::uint32_t format_version;
  std::uint32_t metadata_size;
  std::uint64_t payload_size;
  std::int64_t created_unix;
  std::uint32_t payload_format;
  std::uint32_t flags;
  std::uint64_t checksum;
};
static_assert(std::endian::native == std::endian::little,
              "the envelope is written little-endian in place");
static_assert(sizeof(EnvelopeHeader) == 48);
static_assert(offsetof(EnvelopeHeader, format_version) == 8);
static_assert(offsetof(EnvelopeHeader, metadata_size) == 12);
static_assert(offsetof(EnvelopeHeader, payload_size) == 16);
static_assert(offsetof(EnvelopeHeader, created_unix) == 24);
static_assert(offsetof(EnvelopeHeader, payload_format) == 32);
static_assert(offsetof(EnvelopeHeader, flags) == 36);
static_assert(offsetof(EnvelopeHeader, checksum) == 40);
inline constexpr std::size_t kChecksummedHeaderBytes = offsetof(EnvelopeHeader, checksum);

// Fields written into an envelope. Views must outlive the call they are passed to.
struct EnvelopeFields {
  std::string_view algorithm;
  std::string_view summary;
  std::string_view toolchain;
  std::uint32_t payload_format = 0;
  std::int64_t created_unix = 0;
};

// A decoded envelope. All views point into the buffer passed to decode_envelope().
struct EnvelopeView {
  EnvelopeFields fields;
  std::span<const std::byte> payload;
};

// Total encoded size; invalid_argument when a metadata field exceeds kMaxMetaField.
Result<std::size_t> envelope_size(const EnvelopeFields& fields, std::size_t payload_size);

// Writes the envelope into `out`, which must be exactly envelope_size() bytes.
void encode_envelope(std::span<std::byte> out, const EnvelopeFields& fields,
                     std::span<const std::byte> payload);

// Lets xxHash pick its fastest code for this CPU now (once per process) so that the
// first read does not pay for it. Store::open calls it.
void prepare_checksums() noexcept;

// Parses `bytes`. verify_checksum=false checks only structure (for listings).
// Errors: corrupt (bad magic, sizes, flags or checksum), format (another format version).
Result<EnvelopeView> decode_envelope(std::span<const std::byte> bytes, bool verify_checksum = true);

}  // namespace cccl_cache
