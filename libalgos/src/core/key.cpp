#include "cccl_cache/algos/core/key.hpp"

#include <string_view>

namespace cccl_cache::algos {
namespace {

// Bump when the encoding below changes or a field's meaning does (it changes every key).
// 3: the fingerprint and the ABI digest are the key's own algorithm's (2: every
// algorithm's ABI in one digest).
constexpr std::uint32_t kKeyEncodingVersion = 3;

// Never reuse a number.
enum class Tag : std::uint8_t {
  encoding_version = 1,
  algorithm = 2,
  spec_fields = 3,
  codegen = 4,
  cc = 9,
  cccl_version = 10,
  nvrtc_version = 11,
  nvjitlink_version = 12,
  compile_options = 13,
  build_format_version = 14,
  fingerprint = 15,
  nvrtc_library = 17,
  nvjitlink_library = 18,
  // 19: the digest of every algorithm's dispatch ABI together (encoding version 2).
  algorithm_dispatch_abi = 20,
};

class Encoder {
 public:
  void bytes(Tag tag, std::span<const std::byte> data) {
    header(tag, data.size());
    out_.insert(out_.end(), data.begin(), data.end());
  }
  void text(Tag tag, std::string_view s) { bytes(tag, std::as_bytes(std::span(s.data(), s.size()))); }
  void u32(Tag tag, std::uint32_t v) {
    header(tag, 4);
    put_u32(v);
  }
  void u64(Tag tag, std::uint64_t v) {
    header(tag, 8);
    put_u32(static_cast<std::uint32_t>(v));
    put_u32(static_cast<std::uint32_t>(v >> 32));
  }
  void pair(Tag tag, int a, int b) {
    header(tag, 8);
    put_u32(static_cast<std::uint32_t>(a));
    put_u32(static_cast<std::uint32_t>(b));
  }
  std::vector<std::byte> take() { return std::move(out_); }

 private:
  void header(Tag tag, std::size_t n) {
    out_.push_back(static_cast<std::byte>(tag));
    put_u32(static_cast<std::uint32_t>(n));
  }
  void put_u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xffu));
  }
  std::vector<std::byte> out_;
};

}  // namespace

std::vector<std::byte> canonical_bytes(AlgorithmId algorithm, std::span<const std::byte> spec_fields,
                                       std::uint64_t codegen_digest, std::uint32_t cc,
                                       const Toolchain& tc) {
  Encoder e;
  const std::string_view name = algorithm_name(algorithm);
  e.u32(Tag::encoding_version, kKeyEncodingVersion);
  e.text(Tag::algorithm, name);
  e.bytes(Tag::spec_fields, spec_fields);
  e.u64(Tag::codegen, codegen_digest);
  e.u32(Tag::cc, cc);
  e.u32(Tag::cccl_version, tc.cccl_version);
  e.pair(Tag::nvrtc_version, tc.nvrtc_major, tc.nvrtc_minor);
  e.pair(Tag::nvjitlink_version, tc.nvjitlink_major, tc.nvjitlink_minor);
  e.text(Tag::compile_options, tc.compile_options);
  e.u32(Tag::build_format_version, tc.build_format_version);
  e.text(Tag::fingerprint, tc.fingerprint(name));
  e.text(Tag::nvrtc_library, tc.nvrtc_library);
  e.text(Tag::nvjitlink_library, tc.nvjitlink_library);
  e.u64(Tag::algorithm_dispatch_abi, tc.dispatch_abi_of(name));
  return e.take();
}

CacheKey spec_key(AlgorithmId algorithm, std::span<const std::byte> spec_fields,
                  std::uint64_t codegen_digest, std::uint32_t cc, const Toolchain& tc) {
  return CacheKey{xxh3_128(canonical_bytes(algorithm, spec_fields, codegen_digest, cc, tc)), cc};
}

}  // namespace cccl_cache::algos
