// The envelope grammar is in serialize.hpp.
#include "cccl_cache/algos/merge_sort/serialize.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cereal/archives/binary.hpp>
#include <cstring>
#include <istream>
#include <ostream>
#include <sstream>
#include <streambuf>

#include "elf.hpp"

namespace cccl_cache::algos::merge_sort {
namespace {

constexpr char kMagic[4] = {'C', 'C', 'M', 'S'};
constexpr std::size_t kHeaderSize = 4 + 4 + 8, kTrailerSize = 8;

// Reads straight from the caller's bytes.
class SpanBuf : public std::streambuf {
 public:
  explicit SpanBuf(std::span<const std::byte> b) {
    auto* p = const_cast<char*>(reinterpret_cast<const char*>(b.data()));
    setg(p, p, p + b.size());
  }
  std::size_t left() const { return static_cast<std::size_t>(egptr() - gptr()); }
  // The next `n` bytes (n <= left()), consumed without copying.
  const char* take(std::size_t n) {
    char* p = gptr();
    setg(eback(), p + n, egptr());
    return p;
  }
};

// cereal (de)serialization of BuildResult with bounded lengths.
struct Wire {
  BuildResult* r;
  SpanBuf* in;  // loading: the archive's buffer, for reading long fields in place

  template <class Archive>
  void bytes(Archive& ar, std::string& s) const {
    ar(static_cast<std::uint64_t>(s.size()), cereal::binary_data(s.data(), s.size()));
  }
  template <class Archive>
  void bytes(Archive& ar, std::vector<std::byte>& v) const {
    ar(static_cast<std::uint64_t>(v.size()), cereal::binary_data(v.data(), v.size()));
  }

  // The bytes are copied once, straight from the input (no zero-fill, no stream read).
  template <class T>
  void read_bytes(cereal::BinaryInputArchive& ar, T& out) {
    std::uint64_t n = 0;
    ar(n);
    if (n > in->left()) throw std::length_error("length field exceeds the remaining payload");
    const auto* p = reinterpret_cast<const typename T::value_type*>(in->take(n));
    out.assign(p, p + n);
  }

  template <class Archive, class Str>
  void field(Archive& ar, Str& s) {
    if constexpr (Archive::is_loading::value)
      read_bytes(ar, s);
    else
      bytes(ar, s);
  }

  template <class Archive>
  void serialize(Archive& ar) {
    auto& s = r->spec;
    auto key = static_cast<std::uint8_t>(s.key_type),
         value = static_cast<std::uint8_t>(s.value_type);
    auto kind = static_cast<std::uint8_t>(s.comparator.kind),
         offset = static_cast<std::uint8_t>(s.offset_type);
    ar(key, value, kind);
    field(ar, s.comparator.name);
    field(ar, s.comparator.source);
    ar(offset, r->cc);
    field(ar, r->toolchain);
    field(ar, r->cubin);
    field(ar, r->block_sort_kernel);
    field(ar, r->partition_kernel);
    field(ar, r->merge_kernel);
    ar(r->policy.block_threads, r->policy.items_per_tile, r->policy.block_sort_vsmem_per_block,
       r->policy.merge_vsmem_per_block);
    s.key_type = static_cast<ScalarType>(key);
    s.value_type = static_cast<ScalarType>(value);
    s.comparator.kind = static_cast<ComparatorKind>(kind);
    s.offset_type = static_cast<ScalarType>(offset);
  }
};

void put_le(std::vector<std::byte>& out, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xffu));
}
std::uint64_t get_le(std::span<const std::byte> b, std::size_t off, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | std::to_integer<std::uint64_t>(b[off + static_cast<std::size_t>(i)]);
  return v;
}

tl::unexpected<Error> corrupt(const std::string& what) {
  return fail(ErrorCode::corrupt,
              "merge sort build result: " + what + "; rebuild it (the entry can be evicted)");
}

Result<void> check(const BuildResult& r, std::optional<std::uint32_t> expected_cc) {
  if (auto ok = validate(r.spec); !ok) return corrupt("invalid spec: " + ok.error().message);
  if (r.cc < 50 || r.cc > 120)
    return corrupt("implausible compute capability " + std::to_string(r.cc));
  if (r.toolchain.empty()) return corrupt("no toolchain fingerprint");
  const auto& p = r.policy;
  if (p.block_threads == 0 || p.block_threads > 1024 || p.items_per_tile == 0 ||
      p.items_per_tile % p.block_threads != 0) {
    return corrupt("implausible policy values");
  }
  const std::string* const kernels[] = {&r.block_sort_kernel, &r.partition_kernel, &r.merge_kernel};
  bool found[3] = {false, false, false};
  auto elf = algos::detail::scan_elf(r.cubin, [&](std::string_view symbol) {
    for (int i = 0; i < 3; ++i) found[i] = found[i] || symbol == *kernels[i];
  });
  if (!elf) return corrupt(elf.error().message);
  if (elf->machine != algos::detail::kElfMachineCuda) return corrupt("the cubin is not a CUDA ELF");
  if (elf->sm != r.cc) {
    return corrupt("the cubin targets sm_" + std::to_string(elf->sm) + ", the entry says sm_" +
                   std::to_string(r.cc));
  }
  for (int i = 0; i < 3; ++i) {
    if (kernels[i]->empty()) return corrupt("empty kernel name");
    if (!found[i]) return corrupt("kernel " + *kernels[i] + " is not in the cubin");
  }
  if (expected_cc && *expected_cc != r.cc) {
    return fail(ErrorCode::unsupported, "build result is for sm_" + std::to_string(r.cc) +
                                            ", expected sm_" + std::to_string(*expected_cc));
  }
  return {};
}

}  // namespace

std::vector<std::byte> serialize(const BuildResult& result) {
  std::ostringstream os(std::ios::binary);
  {
    cereal::BinaryOutputArchive ar(os);
    BuildResult copy =
        result;  // Wire's serialize() is shared with loading and takes a mutable object
    Wire wire{&copy, nullptr};
    wire.serialize(ar);
  }
  const std::string payload = std::move(os).str();
  std::vector<std::byte> out;
  out.reserve(kHeaderSize + payload.size() + kTrailerSize);
  for (char c : kMagic) out.push_back(static_cast<std::byte>(c));
  put_le(out, kBuildFormatVersion, 4);
  put_le(out, payload.size(), 8);
  for (char c : payload) out.push_back(static_cast<std::byte>(c));
  put_le(out, XXH3_64bits(payload.data(), payload.size()), 8);
  return out;
}

Result<BuildResult> deserialize(std::span<const std::byte> bytes,
                                std::optional<std::uint32_t> expected_cc) {
  if (bytes.size() < 4 || std::memcmp(bytes.data(), kMagic, 4) != 0)
    return corrupt("no CCMS magic");
  if (bytes.size() < kHeaderSize + kTrailerSize) return corrupt("truncated header");
  const auto version = get_le(bytes, 4, 4);
  if (version != kBuildFormatVersion) {
    return fail(ErrorCode::format, "merge sort build result has format version " +
                                       std::to_string(version) + ", this build reads version " +
                                       std::to_string(kBuildFormatVersion) + "; rebuild it");
  }
  const auto length = get_le(bytes, 8, 8);
  if (length != bytes.size() - kHeaderSize - kTrailerSize)
    return corrupt("length field does not match the blob size");
  const auto payload = bytes.subspan(kHeaderSize, static_cast<std::size_t>(length));
  if (XXH3_64bits(payload.data(), payload.size()) !=
      get_le(bytes, kHeaderSize + payload.size(), 8)) {
    return corrupt("checksum mismatch");
  }
  BuildResult r;
  SpanBuf buf(payload);
  try {
    std::istream is(&buf);
    cereal::BinaryInputArchive ar(is);
    Wire wire{&r, &buf};
    wire.serialize(ar);
  } catch (const std::exception& e) {
    return corrupt(std::string("malformed payload (") + e.what() + ")");
  }
  if (buf.left() != 0) return corrupt("trailing bytes after the payload");
  if (auto ok = check(r, expected_cc); !ok) return tl::unexpected(ok.error());
  return r;
}

}  // namespace cccl_cache::algos::merge_sort
