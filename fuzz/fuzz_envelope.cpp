// Fuzzes decode_envelope (the store's value format, cache/envelope.hpp): the input as
// it is (structure only, and with checksum verification), and once more with its
// checksum fixed up, so that inputs get past the checksum into the field checks.
#include <xxhash.h>

#include <cstring>
#include <vector>

#include "cccl_cache/cache/envelope.hpp"
#include "fuzz_util.hpp"

using namespace cccl_cache;

namespace {
void check(std::span<const std::byte> in, bool verify) {
  auto r = decode_envelope(in, verify);
  if (!r) return;
  fuzz::require_inside(r->payload, in, "payload");
  fuzz::require_inside(r->fields.algorithm, in, "algorithm");
  fuzz::require_inside(r->fields.summary, in, "summary");
  fuzz::require_inside(r->fields.toolchain, in, "toolchain");
  fuzz::touch(r->payload);
  // A decoded envelope re-encodes to the same bytes.
  auto n = envelope_size(r->fields, r->payload.size());
  fuzz::require(n && *n == in.size(), "decoded size equals input size");
  std::vector<std::byte> again(*n);
  encode_envelope(again, r->fields, r->payload);
  if (verify) fuzz::require(std::memcmp(again.data(), in.data(), in.size()) == 0, "re-encoding");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::bytes_of(data, size);
  check(in, false);
  check(in, true);
  if (size >= sizeof(EnvelopeHeader)) {
    std::vector<std::byte> fixed(in.begin(), in.end());
    XXH3_state_t* st = XXH3_createState();
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, fixed.data(), kChecksummedHeaderBytes);
    XXH3_64bits_update(st, fixed.data() + sizeof(EnvelopeHeader), size - sizeof(EnvelopeHeader));
    const std::uint64_t sum = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    std::memcpy(fixed.data() + kChecksummedHeaderBytes, &sum, sizeof sum);
    check(fixed, true);
  }
  return 0;
}
