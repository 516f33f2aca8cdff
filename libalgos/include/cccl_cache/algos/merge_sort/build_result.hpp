// The device-independent result of building a merge sort: everything `bind`
// needs, nothing tied to a device or process. Serializable (serialize.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
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

}  // namespace cccl_cache::algos::merge_sort
