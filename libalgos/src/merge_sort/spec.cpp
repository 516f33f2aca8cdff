#include "cccl_cache/algos/merge_sort/spec.hpp"

#include <string_view>

#include "merge_sort/codegen.hpp"

namespace cccl_cache::algos::merge_sort {
namespace {

// Bump when the encoding below changes (it changes every key).
constexpr std::uint32_t kSpecEncodingVersion = 2;

// Field tags of the canonical encoding. Never reuse a number.
enum class Tag : std::uint8_t {
  encoding_version = 1,
  algorithm = 2,
  key_type = 3,
  value_type = 4,
  comparator_kind = 5,
  comparator_name = 6,
  comparator_source = 7,
  offset_type = 8,
  cc = 9,
  cccl_version = 10,
  nvrtc_version = 11,
  nvjitlink_version = 12,
  compile_options = 13,
  build_format_version = 14,
  fingerprint = 15,
  codegen = 16,  // digest of the generated source and name expressions (codegen_digest)
  nvrtc_library = 17,
  nvjitlink_library = 18,
  dispatch_abi = 19,
};

bool known_type(ScalarType t) {
  return static_cast<std::uint8_t>(t) <= static_cast<std::uint8_t>(ScalarType::float64);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || s.size() > 256) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

// tag (1 byte) | length (4 bytes, little-endian) | bytes
class Encoder {
 public:
  void bytes(Tag tag, std::string_view data) {
    out_.push_back(static_cast<std::byte>(tag));
    put_u32(static_cast<std::uint32_t>(data.size()));
    for (char c : data) out_.push_back(static_cast<std::byte>(c));
  }
  void u32(Tag tag, std::uint32_t v) {
    out_.push_back(static_cast<std::byte>(tag));
    put_u32(4);
    put_u32(v);
  }
  void u64(Tag tag, std::uint64_t v) {
    out_.push_back(static_cast<std::byte>(tag));
    put_u32(8);
    put_u32(static_cast<std::uint32_t>(v));
    put_u32(static_cast<std::uint32_t>(v >> 32));
  }
  void pair(Tag tag, int a, int b) {
    out_.push_back(static_cast<std::byte>(tag));
    put_u32(8);
    put_u32(static_cast<std::uint32_t>(a));
    put_u32(static_cast<std::uint32_t>(b));
  }
  std::vector<std::byte> take() { return std::move(out_); }

 private:
  void put_u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xffu));
  }
  std::vector<std::byte> out_;
};

}  // namespace

Result<void> validate(const Spec& spec) {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "merge sort spec: " + std::move(what));
  };
  if (!known_type(spec.key_type) || spec.key_type == ScalarType::none)
    return bad("key type must be an integer or float type");
  if (!known_type(spec.value_type)) return bad("unknown value type");
  switch (spec.offset_type) {
    case ScalarType::int32:
    case ScalarType::uint32:
    case ScalarType::int64:
    case ScalarType::uint64:
      break;
    default:
      return bad("offset type must be int32, uint32, int64 or uint64");
  }
  const auto& c = spec.comparator;
  switch (c.kind) {
    case ComparatorKind::less:
    case ComparatorKind::greater:
      if (!c.name.empty() || !c.source.empty())
        return bad("a built-in comparator takes no name or source");
      break;
    case ComparatorKind::custom:
      if (!is_identifier(c.name))
        return bad("custom comparator name '" + c.name + "' is not a C++ identifier");
      if (c.name.rfind("cccl_cache_", 0) == 0)
        return bad("custom comparator names may not start with cccl_cache_");
      if (c.source.find_first_not_of(" \t\r\n") == std::string::npos)
        return bad("custom comparator source is empty");
      if (c.source.size() > (1u << 20)) return bad("custom comparator source exceeds 1 MiB");
      break;
    default:
      return bad("unknown comparator kind");
  }
  return {};
}

std::vector<std::byte> canonical_bytes(const Spec& spec, std::uint32_t cc, const Toolchain& tc) {
  Encoder e;
  e.u32(Tag::encoding_version, kSpecEncodingVersion);
  e.bytes(Tag::algorithm, kAlgorithmName);
  e.u32(Tag::key_type, static_cast<std::uint32_t>(spec.key_type));
  e.u32(Tag::value_type, static_cast<std::uint32_t>(spec.value_type));
  e.u32(Tag::comparator_kind, static_cast<std::uint32_t>(spec.comparator.kind));
  e.bytes(Tag::comparator_name, spec.comparator.name);
  e.bytes(Tag::comparator_source, spec.comparator.source);
  e.u32(Tag::offset_type, static_cast<std::uint32_t>(spec.offset_type));
  e.u32(Tag::cc, cc);
  e.u32(Tag::cccl_version, tc.cccl_version);
  e.pair(Tag::nvrtc_version, tc.nvrtc_major, tc.nvrtc_minor);
  e.pair(Tag::nvjitlink_version, tc.nvjitlink_major, tc.nvjitlink_minor);
  e.bytes(Tag::compile_options, tc.compile_options);
  e.u32(Tag::build_format_version, tc.build_format_version);
  e.bytes(Tag::fingerprint, tc.fingerprint());
  // Our own code generation: any change of the template (prelude, kernel name
  // expressions, policy probe) changes every key without a hand-bumped version.
  if (validate(spec)) e.u64(Tag::codegen, detail::codegen_digest(spec));
  e.bytes(Tag::nvrtc_library, tc.nvrtc_library);
  e.bytes(Tag::nvjitlink_library, tc.nvjitlink_library);
  e.u64(Tag::dispatch_abi, tc.dispatch_abi);
  return e.take();
}

CacheKey cache_key(const Spec& spec, std::uint32_t cc, const Toolchain& tc) {
  return CacheKey{xxh3_128(canonical_bytes(spec, cc, tc)), cc};
}

std::string summary(const Spec& spec) {
  return "keys=" + std::string(name(spec.key_type)) +
         " values=" + std::string(name(spec.value_type)) + " cmp=" + describe(spec.comparator) +
         " offset=" + std::string(name(spec.offset_type));
}

}  // namespace cccl_cache::algos::merge_sort
