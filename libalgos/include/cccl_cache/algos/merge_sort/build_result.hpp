// Merge sort's build result: the generic record (core/built.hpp) with its kernels
// and runtime values named. Device-independent; what the store holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <array>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"

namespace cccl_cache::algos::merge_sort {

// The values CUB's host dispatch needs, read from the kernels' own compile for the
// target CC (the policy the device code used), never guessed on the host.
struct Policy {
  std::uint32_t block_threads = 0;
  std::uint32_t items_per_tile = 0;              // block_threads * items_per_thread
  std::uint64_t block_sort_vsmem_per_block = 0;  // virtual shared memory bytes per tile (0: fits)
  std::uint64_t merge_vsmem_per_block = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("block_threads", p.block_threads);
    v("items_per_tile", p.items_per_tile);
    v("block_sort_vsmem_per_block", p.block_sort_vsmem_per_block);
    v("merge_vsmem_per_block", p.merge_vsmem_per_block);
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order.
enum Kernel : std::size_t { block_sort_kernel = 0, partition_kernel = 1, merge_kernel = 2 };

}  // namespace cccl_cache::algos::merge_sort

namespace cccl_cache::algos {

namespace merge_sort {
class Executable;  // executable.hpp
}

// Merge sort's traits for the core (core/built.hpp, AlgorithmCache).
struct MergeSort : AlgorithmBase<MergeSort, merge_sort::Spec> {
  using Spec = merge_sort::Spec;
  using Policy = merge_sort::Policy;
  using Executable = merge_sort::Executable;
  static constexpr std::size_t kKernels = 3;
  // The kernels' roles, in the record's kernel order (for people: inspect).
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"block_sort", "partition",
                                                                          "merge"};
  // A plausible tile shape, and kernel names that name the role they are used for.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  // The host dispatch's side of the kernel interface (merge_sort/dispatch.cu).
  static const std::string& dispatch_abi();
  static Result<Executable> bind(const BuiltView<MergeSort>& built, int device);
};

namespace merge_sort {
using BuildResult = Built<MergeSort>;
using BuildResultView = BuiltView<MergeSort>;
// build(spec, cc) (core/built.hpp): CUB's three merge-sort kernels for `spec`, and their
// policy values.
using algos::build;
}  // namespace merge_sort

}  // namespace cccl_cache::algos
