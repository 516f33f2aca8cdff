// The one build record of every algorithm: what a build produces and the store
// keeps, independent of any device or process. An algorithm gives meaning to its
// kernels (their order) and runtime values (policy and extras, in the order its
// `Policy::fields` lists them); the record itself is generic.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/core/algorithm.hpp"

namespace cccl_cache::algos {

inline constexpr std::size_t kMaxKernels = 16;        // radix sort has 11
inline constexpr std::size_t kMaxRuntimeValues = 48;

struct BuildRecord {
  AlgorithmId algorithm = AlgorithmId::merge_sort;
  std::vector<std::byte> spec;        // encode_fields() of the algorithm's spec
  std::uint32_t cc = 0;               // target compute capability (90 = sm_90)
  std::string toolchain;              // Toolchain::fingerprint(algorithm) of the producer
  std::vector<std::byte> cubin;       // ELF for sm_<cc>
  std::vector<std::string> kernels;   // lowered (mangled) kernel names, the algorithm's order
  std::vector<std::uint64_t> values;  // runtime values the host dispatch needs

  bool operator==(const BuildRecord&) const = default;
};

// What the cubin says about one kernel of a record (parse_record reads it), for the
// algorithm's checks: an entry is trusted no further than its cubin.
struct KernelFacts {
  bool entry = false;  // exactly one symbol of that name, a CUDA kernel entry point
  // EIATTR_MAX_THREADS (__launch_bounds__) and EIATTR_REQNTID (x, y, z), when present.
  bool has_max_threads = false, has_reqntid = false;
  std::array<std::uint32_t, 3> max_threads{}, reqntid{};
  std::uint64_t static_shared_bytes = 0;  // its .nv.shared.<name> section
};

// A BuildRecord with its long fields borrowed: what bind works from, and what a
// store hit reads straight out of the stored blob. Valid while the bytes it borrows
// are. Fixed-size arrays: making one allocates nothing.
struct BuildRecordView {
  AlgorithmId algorithm = AlgorithmId::merge_sort;
  std::span<const std::byte> spec;
  std::uint32_t cc = 0;
  std::string_view toolchain;
  std::span<const std::byte> cubin;
  std::array<std::string_view, kMaxKernels> kernel_names{};
  std::size_t num_kernels = 0;
  std::array<std::uint64_t, kMaxRuntimeValues> value_array{};
  std::size_t num_values = 0;
  // Filled by parse_record (has_kernel_facts): kernel_facts[i] for kernel i.
  std::array<KernelFacts, kMaxKernels> kernel_facts{};
  bool has_kernel_facts = false;

  std::span<const std::string_view> kernels() const noexcept {
    return {kernel_names.data(), num_kernels};
  }
  std::span<const std::uint64_t> values() const noexcept { return {value_array.data(), num_values}; }
};

// A view of `r` (borrows from it). Requires r.kernels.size() <= kMaxKernels and
// r.values.size() <= kMaxRuntimeValues (builds and deserialize guarantee it).
BuildRecordView view_of(const BuildRecord& r) noexcept;
// An owning copy of what `v` borrows.
BuildRecord to_owned(const BuildRecordView& v);

}  // namespace cccl_cache::algos
