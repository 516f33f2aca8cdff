// The blob grammar is in blob.hpp.
#include "cccl_cache/algos/core/blob.hpp"

#include <cereal/archives/binary.hpp>
#include <cstring>
#include <sstream>

#include "cccl_cache/algos/toolchain.hpp"
#include "elf.hpp"
#include "span_archive.hpp"

namespace cccl_cache::algos {
namespace {

constexpr char kMagic[4] = {'C', 'C', 'B', 'R'};

template <class Bytes>
void put(cereal::BinaryOutputArchive& ar, const Bytes& b) {
  ar(static_cast<std::uint64_t>(b.size()),
     cereal::binary_data(const_cast<typename Bytes::value_type*>(b.data()), b.size()));
}

std::span<const std::byte> take(detail::SpanInputArchive& ar) {
  std::uint64_t n = 0;
  ar(n);
  if (n > ar.left()) throw std::length_error("a length field exceeds the bytes left");
  return ar.take(static_cast<std::size_t>(n));
}

std::string_view take_str(detail::SpanInputArchive& ar) {
  const auto b = take(ar);
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

tl::unexpected<Error> corrupt(const std::string& what) {
  return fail(ErrorCode::corrupt, "build record: " + what + "; rebuild it (the entry can be evicted)");
}

}  // namespace

BuildRecordView view_of(const BuildRecord& r) noexcept {
  BuildRecordView v;
  v.algorithm = r.algorithm;
  v.spec = r.spec;
  v.cc = r.cc;
  v.toolchain = r.toolchain;
  v.cubin = r.cubin;
  v.num_kernels = std::min(r.kernels.size(), kMaxKernels);
  for (std::size_t i = 0; i < v.num_kernels; ++i) v.kernel_names[i] = r.kernels[i];
  v.num_values = std::min(r.values.size(), kMaxRuntimeValues);
  for (std::size_t i = 0; i < v.num_values; ++i) v.value_array[i] = r.values[i];
  return v;
}

BuildRecord to_owned(const BuildRecordView& v) {
  BuildRecord r;
  r.algorithm = v.algorithm;
  r.spec.assign(v.spec.begin(), v.spec.end());
  r.cc = v.cc;
  r.toolchain = std::string(v.toolchain);
  r.cubin.assign(v.cubin.begin(), v.cubin.end());
  for (auto k : v.kernels()) r.kernels.emplace_back(k);
  r.values.assign(v.values().begin(), v.values().end());
  return r;
}

std::vector<std::byte> serialize_record(const BuildRecord& r) {
  std::ostringstream os(std::ios::binary);
  {
    cereal::BinaryOutputArchive ar(os);
    ar(cereal::binary_data(const_cast<char*>(kMagic), sizeof kMagic));
    ar(kBuildFormatVersion, static_cast<std::uint8_t>(r.algorithm), r.cc);
    put(ar, r.spec);
    put(ar, r.toolchain);
    put(ar, r.cubin);
    ar(static_cast<std::uint8_t>(r.kernels.size()));
    for (const auto& k : r.kernels) put(ar, k);
    ar(static_cast<std::uint8_t>(r.values.size()));
    for (std::uint64_t v : r.values) ar(v);
  }
  const std::string s = std::move(os).str();
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

Result<BuildRecordView> parse_record(std::span<const std::byte> bytes,
                                     std::optional<std::uint32_t> expected_cc) {
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 4) != 0) return corrupt("no CCBR magic");
  BuildRecordView v;
  detail::SpanInputArchive ar(bytes.subspan(4));
  try {
    std::uint32_t format = 0;
    ar(format);
    if (format != kBuildFormatVersion) {
      return fail(ErrorCode::format, "build record has format version " + std::to_string(format) +
                                         ", this build reads version " +
                                         std::to_string(kBuildFormatVersion) + "; rebuild it");
    }
    std::uint8_t algorithm = 0, count = 0;
    ar(algorithm, v.cc);
    v.algorithm = static_cast<AlgorithmId>(algorithm);
    if (algorithm_name(v.algorithm) == "unknown")
      return corrupt("unknown algorithm " + std::to_string(algorithm));
    v.spec = take(ar);
    v.toolchain = take_str(ar);
    v.cubin = take(ar);
    ar(count);
    if (count > kMaxKernels) return corrupt(std::to_string(count) + " kernels");
    v.num_kernels = count;
    for (std::size_t i = 0; i < count; ++i) v.kernel_names[i] = take_str(ar);
    ar(count);
    if (count > kMaxRuntimeValues) return corrupt(std::to_string(count) + " runtime values");
    v.num_values = count;
    for (std::size_t i = 0; i < count; ++i) ar(v.value_array[i]);
  } catch (const std::exception& e) {
    return corrupt(std::string("malformed (") + e.what() + ")");
  }
  if (ar.left() != 0) return corrupt("trailing bytes");
  if (v.cc < 50 || v.cc > 120) return corrupt("implausible compute capability " + std::to_string(v.cc));
  if (v.toolchain.empty()) return corrupt("no toolchain fingerprint");
  if (v.num_kernels == 0) return corrupt("no kernels");
  std::array<detail::ElfKernel, kMaxKernels> kernels{};
  auto elf = detail::read_kernels(v.cubin, v.kernels(), std::span(kernels.data(), v.num_kernels));
  if (!elf) return corrupt(elf.error().message);
  if (elf->machine != detail::kElfMachineCuda) return corrupt("the cubin is not a CUDA ELF");
  if (elf->sm != v.cc) {
    return corrupt("the cubin targets sm_" + std::to_string(elf->sm) + ", the record says sm_" +
                   std::to_string(v.cc));
  }
  for (std::size_t i = 0; i < v.num_kernels; ++i) {
    const std::string name(v.kernel_names[i]);
    if (name.empty()) return corrupt("empty kernel name");
    if (kernels[i].symbols == 0) return corrupt("kernel " + name + " is not in the cubin");
    if (kernels[i].symbols != 1 || !kernels[i].entry)
      return corrupt("kernel " + name + " is not a kernel entry point of the cubin");
    auto& f = v.kernel_facts[i];
    f.entry = true;
    if (kernels[i].max_threads) f.has_max_threads = true, f.max_threads = *kernels[i].max_threads;
    if (kernels[i].reqntid) f.has_reqntid = true, f.reqntid = *kernels[i].reqntid;
    f.static_shared_bytes = kernels[i].static_shared_bytes;
  }
  v.has_kernel_facts = true;
  if (expected_cc && *expected_cc != v.cc) {
    return fail(ErrorCode::unsupported, "build record is for sm_" + std::to_string(v.cc) +
                                            ", expected sm_" + std::to_string(*expected_cc));
  }
  return v;
}

}  // namespace cccl_cache::algos
