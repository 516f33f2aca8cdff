// The envelope grammar is in serialize.hpp.
#include "cccl_cache/algos/merge_sort/serialize.hpp"

#include <xxhash.h>
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>  // XXH3 with AVX2 where present (same values), as in libcache
#endif

#include <algorithm>
#include <array>
#include <string>
#include <cereal/archives/binary.hpp>
#include <cstring>
#include <ostream>
#include <sstream>

#include "elf.hpp"
#include "merge_sort/dispatch.hpp"
#include "span_archive.hpp"

namespace cccl_cache::algos::merge_sort {
namespace {

constexpr char kMagic[4] = {'C', 'C', 'M', 'S'};
constexpr std::size_t kHeaderSize = 4 + 4 + 8, kTrailerSize = 8;

// The payload's fields in order (serialize.hpp), written from a BuildResult and read
// into a BuildResultView whose long fields point into the payload.
struct Wire {
  using Archive = algos::detail::SpanInputArchive;
  // str, bytes := length:u64 | raw bytes
  template <class Bytes>
  static void put(cereal::BinaryOutputArchive& ar, const Bytes& b) {
    ar(static_cast<std::uint64_t>(b.size()),
       cereal::binary_data(const_cast<typename Bytes::value_type*>(b.data()), b.size()));
  }
  // The next length-prefixed field, borrowed in place (never longer than what is left).
  static std::span<const std::byte> take(Archive& ar) {
    std::uint64_t n = 0;
    ar(n);
    if (n > ar.left()) throw std::length_error("length field exceeds the remaining payload");
    return ar.take(static_cast<std::size_t>(n));
  }
  static std::string_view take_str(Archive& ar) {
    const auto b = take(ar);
    return {reinterpret_cast<const char*>(b.data()), b.size()};
  }

  static void save(cereal::BinaryOutputArchive& ar, const BuildResult& r) {
    const auto& s = r.spec;
    ar(static_cast<std::uint8_t>(s.key_type), static_cast<std::uint8_t>(s.value_type),
       static_cast<std::uint8_t>(s.comparator.kind));
    put(ar, s.comparator.name);
    put(ar, s.comparator.source);
    ar(static_cast<std::uint8_t>(s.offset_type), r.cc);
    put(ar, r.toolchain);
    put(ar, r.cubin);
    put(ar, r.block_sort_kernel);
    put(ar, r.partition_kernel);
    put(ar, r.merge_kernel);
    ar(r.policy.block_threads, r.policy.items_per_tile, r.policy.block_sort_vsmem_per_block,
       r.policy.merge_vsmem_per_block);
  }

  static void load(Archive& ar, BuildResultView& v) {
    std::uint8_t key = 0, value = 0, kind = 0, offset = 0;
    ar(key, value, kind);
    auto& s = v.spec;
    s.comparator.name = take_str(ar);
    s.comparator.source = take_str(ar);
    ar(offset, v.cc);
    v.toolchain = take_str(ar);
    v.cubin = take(ar);
    v.block_sort_kernel = take_str(ar);
    v.partition_kernel = take_str(ar);
    v.merge_kernel = take_str(ar);
    ar(v.policy.block_threads, v.policy.items_per_tile, v.policy.block_sort_vsmem_per_block,
       v.policy.merge_vsmem_per_block);
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

// The role of each kernel, as its lowered name spells it: the kernel template's
// <source-name> (length-prefixed identifier) in the Itanium mangling, e.g.
// _ZN3cub..6detail10merge_sort30DeviceMergeSortBlockSortKernelI...
constexpr std::string_view kRoleNames[3] = {"30DeviceMergeSortBlockSortKernel",
                                            "30DeviceMergeSortPartitionKernel",
                                            "26DeviceMergeSortMergeKernel"};
constexpr const char* kRoles[3] = {"block sort", "partition", "merge"};
// The most static shared memory a kernel can declare (larger needs dynamic memory).
constexpr std::uint64_t kMaxStaticSharedBytes = 48 * 1024;

std::string shape(const std::array<std::uint32_t, 3>& s) {
  return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

// What the cubin says of the three kernels agrees with the entry: each name is one
// kernel entry point of the cubin and names the role it is used for (no swaps), and
// the launch bounds the kernels were compiled with are the entry's block_threads.
Result<void> check_kernels(const BuildResultView& r) {
  const std::string_view names[3] = {r.block_sort_kernel, r.partition_kernel, r.merge_kernel};
  for (int i = 0; i < 3; ++i) {
    if (names[i].empty()) return corrupt("empty kernel name");
    for (int role = 0; role < 3; ++role) {
      const bool spells = names[i].find(kRoleNames[role]) != std::string_view::npos;
      if (spells != (role == i) || !names[i].starts_with("_Z"))
        return corrupt("the " + std::string(kRoles[i]) + " kernel's name " + std::string(names[i]) +
                       " does not name a merge sort " + kRoles[i] + " kernel");
    }
  }
  algos::detail::ElfKernel kernels[3];
  auto elf = algos::detail::read_kernels(r.cubin, names, kernels);
  if (!elf) return corrupt(elf.error().message);
  if (elf->machine != algos::detail::kElfMachineCuda) return corrupt("the cubin is not a CUDA ELF");
  if (elf->sm != r.cc) {
    return corrupt("the cubin targets sm_" + std::to_string(elf->sm) + ", the entry says sm_" +
                   std::to_string(r.cc));
  }
  const std::uint32_t threads[3] = {r.policy.block_threads, detail::kPartitionBlockThreads,
                                    r.policy.block_threads};
  for (int i = 0; i < 3; ++i) {
    const auto& k = kernels[i];
    const std::string what = std::string(kRoles[i]) + " kernel " + std::string(names[i]);
    if (k.symbols == 0) return corrupt(what + " is not in the cubin");
    if (!k.entry) return corrupt(what + " is not a kernel entry point of the cubin");
    const std::array<std::uint32_t, 3> want = {threads[i], 1, 1};
    // Block sort and merge are compiled with __launch_bounds__(block_threads): the
    // cubin records it, and it must be the policy's. Partition has no bounds of its own.
    if (i != 1 && !k.max_threads)
      return corrupt(what + " carries no launch bounds (EIATTR_MAX_THREADS)");
    if (k.max_threads && (i != 1 ? *k.max_threads != want
                                 : std::uint64_t{(*k.max_threads)[0]} * (*k.max_threads)[1] *
                                           (*k.max_threads)[2] <
                                       threads[i]))
      return corrupt(what + " was compiled for at most " + shape(*k.max_threads) +
                     " threads, the entry launches " + shape(want));
    if (k.reqntid && *k.reqntid != want)
      return corrupt(what + " requires " + shape(*k.reqntid) + " threads, the entry launches " +
                     shape(want));
    // Without virtual shared memory the kernels keep their tile in static shared memory;
    // a kernel without any expects its tile in global memory the entry does not provide.
    const std::uint64_t vsmem = i == 0   ? r.policy.block_sort_vsmem_per_block
                                : i == 2 ? r.policy.merge_vsmem_per_block
                                         : 1;
    if (vsmem == 0 && k.static_shared_bytes == 0)
      return corrupt(what + " declares no static shared memory but the entry provides no "
                            "virtual shared memory for it");
    if (k.static_shared_bytes > kMaxStaticSharedBytes)
      return corrupt(what + " declares " + std::to_string(k.static_shared_bytes) +
                     " bytes of static shared memory");
  }
  return {};
}

Result<void> check(const BuildResultView& r, std::optional<std::uint32_t> expected_cc) {
  if (auto ok = validate(r.spec); !ok) return corrupt("invalid spec: " + ok.error().message);
  if (r.cc < 50 || r.cc > 120)
    return corrupt("implausible compute capability " + std::to_string(r.cc));
  if (r.toolchain.empty()) return corrupt("no toolchain fingerprint");
  const auto& p = r.policy;
  if (p.block_threads == 0 || p.block_threads > 1024 || p.items_per_tile == 0 ||
      p.items_per_tile % p.block_threads != 0) {
    return corrupt("implausible policy values");
  }
  if (auto ok = check_kernels(r); !ok) return ok;
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
    Wire::save(ar, result);
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

Result<BuildResultView> deserialize_view(std::span<const std::byte> bytes,
                                         std::optional<std::uint32_t> expected_cc,
                                         Integrity integrity) {
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
  if (integrity == Integrity::check_checksum &&
      XXH3_64bits(payload.data(), payload.size()) !=
          get_le(bytes, kHeaderSize + payload.size(), 8)) {
    return corrupt("checksum mismatch");
  }
  BuildResultView r;
  algos::detail::SpanInputArchive ar(payload);
  try {
    Wire::load(ar, r);
  } catch (const std::exception& e) {
    return corrupt(std::string("malformed payload (") + e.what() + ")");
  }
  if (ar.left() != 0) return corrupt("trailing bytes after the payload");
  if (auto ok = check(r, expected_cc); !ok) return tl::unexpected(ok.error());
  return r;
}

Result<BuildResult> deserialize(std::span<const std::byte> bytes,
                                std::optional<std::uint32_t> expected_cc) {
  auto view = deserialize_view(bytes, expected_cc);
  if (!view) return tl::unexpected(view.error());
  return to_owned(*view);
}

}  // namespace cccl_cache::algos::merge_sort
