// The device-independent result of building a merge sort: everything `bind`
// needs, nothing tied to a device or process. Serializable (serialize.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/merge_sort/spec.hpp"

namespace cccl_cache::algos::merge_sort {

// The values CUB's host dispatch needs, read from the kernels' own compile for the
// target CC (the ActivePolicy the device code used), never guessed on the host.
struct Policy {
  std::uint32_t block_threads = 0;
  std::uint32_t items_per_tile = 0;              // block_threads * items_per_thread
  std::uint64_t block_sort_vsmem_per_block = 0;  // virtual shared memory bytes per tile (0: fits)
  std::uint64_t merge_vsmem_per_block = 0;
  bool operator==(const Policy&) const = default;
};

struct BuildResult {
  Spec spec;
  std::uint32_t cc = 0;            // target compute capability (90 = sm_90)
  std::string toolchain;           // Toolchain::fingerprint() of the producer
  std::vector<std::byte> cubin;    // ELF for sm_<cc>
  // Lowered (mangled) kernel names in the cubin.
  std::string block_sort_kernel;
  std::string partition_kernel;
  std::string merge_kernel;
  Policy policy;

  bool operator==(const BuildResult&) const = default;
};

// BuildResult with its long fields borrowed, not owned: what bind() works from, and
// what deserialize_view() reads straight out of a stored blob (a store hit hands the
// cubin to the driver from the store's map, never copying it). Valid while the
// bytes it borrows are.
struct BuildResultView {
  Spec spec;
  std::uint32_t cc = 0;
  std::string_view toolchain;
  std::span<const std::byte> cubin;
  std::string_view block_sort_kernel;
  std::string_view partition_kernel;
  std::string_view merge_kernel;
  Policy policy;
};

// A view of `r` (borrows from it).
inline BuildResultView view_of(const BuildResult& r) noexcept {
  return {r.spec,  r.cc,           r.toolchain,    r.cubin, r.block_sort_kernel, r.partition_kernel,
          r.merge_kernel, r.policy};
}

// An owning copy of what `v` borrows.
inline BuildResult to_owned(const BuildResultView& v) {
  return {v.spec,
          v.cc,
          std::string(v.toolchain),
          std::vector<std::byte>(v.cubin.begin(), v.cubin.end()),
          std::string(v.block_sort_kernel),
          std::string(v.partition_kernel),
          std::string(v.merge_kernel),
          v.policy};
}

}  // namespace cccl_cache::algos::merge_sort
