// Segmented sort's build result: the generic record (core/built.hpp) with its kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/policy_list.hpp"
#include "cccl_cache/algos/segmented_sort/spec.hpp"

namespace cccl_cache::algos::segmented_sort {

// CUB's SegmentedSortPolicy as its host dispatch reads it (block sizes, the large
// segments' digit bits, the warp shapes that size segments per block and items per tile,
// and the segment count above which segments are partitioned by size), each value with
// the member of CUB's policy it mirrors (core/policy_list.hpp); then the three-way
// partition's tile (CUB's ThreeWayPartitionPolicy for the segment indices). Read from the
// kernels' own compile for the target CC (the policy probe).
#define CCCL_CACHE_SEGMENTED_SORT_POLICY(X)                \
  X(large_threads, large_segment.threads_per_block)        \
  X(large_items, large_segment.items_per_thread)           \
  X(radix_bits, large_segment.radix_bits)                  \
  X(medium_threads, medium_segment.threads_per_block)      \
  X(medium_warp_threads, medium_segment.threads_per_warp)  \
  X(medium_items, medium_segment.items_per_thread)         \
  X(small_threads, small_segment.threads_per_block)        \
  X(small_warp_threads, small_segment.threads_per_warp)    \
  X(small_items, small_segment.items_per_thread)           \
  X(partitioning_threshold, partitioning_threshold)
#define CCCL_CACHE_SEGMENTED_SORT_PARTITION_POLICY(X) \
  X(partition_threads, lookback.threads_per_block)    \
  X(partition_items, lookback.items_per_thread)

struct Policy {
  CCCL_CACHE_SEGMENTED_SORT_POLICY(CCCL_CACHE_POLICY_MEMBER)
  CCCL_CACHE_SEGMENTED_SORT_PARTITION_POLICY(CCCL_CACHE_POLICY_MEMBER)

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    CCCL_CACHE_SEGMENTED_SORT_POLICY(CCCL_CACHE_POLICY_FIELD)
    CCCL_CACHE_SEGMENTED_SORT_PARTITION_POLICY(CCCL_CACHE_POLICY_FIELD)
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order: CUB's fallback kernel (few segments: one block per
// segment), its small/medium and large segment kernels and the three-way partition's two
// kernels that sort segment indices into those groups (more segments than the threshold).
enum Kernel : std::size_t { fallback = 0, small = 1, large = 2, partition_init = 3, partition = 4 };
inline constexpr std::size_t kKernelCount = 5;

// CUB's three-way partition dispatch launches its init kernel with this many threads.
inline constexpr std::uint32_t kPartitionInitThreads = 256;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::segmented_sort

namespace cccl_cache::algos {

// Segmented sort's traits for the core (core/built.hpp, AlgorithmCache).
struct SegmentedSort : AlgorithmBase<SegmentedSort, segmented_sort::Spec> {
  using Spec = segmented_sort::Spec;
  using Policy = segmented_sort::Policy;
  using Executable = segmented_sort::Executable;
  static constexpr std::size_t kKernels = segmented_sort::kKernelCount;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {
      "fallback", "small", "large", "partition_init", "partition"};
  // A plausible policy, kernel names that name their roles, launch bounds that agree with
  // the block sizes launched.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // segmented_sort/dispatch.cu
  static Result<Executable> bind(const BuiltView<SegmentedSort>& built, int device);
};

namespace segmented_sort {
using BuildResult = Built<SegmentedSort>;
using BuildResultView = BuiltView<SegmentedSort>;
using algos::build;  // core/built.hpp
}  // namespace segmented_sort

}  // namespace cccl_cache::algos
