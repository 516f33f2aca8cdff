// three-way partition's build result: the generic record (core/built.hpp) with its
// kernels and runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/policy_list.hpp"
#include "cccl_cache/algos/three_way_partition/spec.hpp"

namespace cccl_cache::algos::three_way_partition {

// The ThreeWayPartitionPolicy the partition kernel was compiled with (CUB's selector for
// the item type and its int per-partition offsets, at the target CC), as far as the host
// dispatch reads it: the tile shape, each value with the member of CUB's policy it
// mirrors (core/policy_list.hpp). Read from the kernel's own compile (policy probe).
#define CCCL_CACHE_THREE_WAY_PARTITION_POLICY(X) \
  X(threads, lookback.threads_per_block)         \
  X(items, lookback.items_per_thread)

struct Policy {
  CCCL_CACHE_THREE_WAY_PARTITION_POLICY(CCCL_CACHE_POLICY_MEMBER)

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    CCCL_CACHE_THREE_WAY_PARTITION_POLICY(CCCL_CACHE_POLICY_FIELD)
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order.
enum Kernel : std::size_t { init_kernel = 0, partition_kernel = 1 };

// CUB launches the init kernel (tile states, the two counts set to 0) with this many
// threads per block.
inline constexpr std::uint32_t kInitBlockThreads = 256;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::three_way_partition

namespace cccl_cache::algos {

// three-way partition's traits for the core (core/built.hpp, AlgorithmCache).
struct ThreeWayPartition : AlgorithmBase<ThreeWayPartition, three_way_partition::Spec> {
  using Spec = three_way_partition::Spec;
  using Policy = three_way_partition::Policy;
  using Executable = three_way_partition::Executable;
  static constexpr std::size_t kKernels = 2;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"init", "partition"};
  // A plausible policy, kernel names that name their roles, launch bounds that agree.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // three_way_partition/dispatch.cu
  static Result<Executable> bind(const BuiltView<ThreeWayPartition>& built, int device);
};

namespace three_way_partition {
using BuildResult = Built<ThreeWayPartition>;
using BuildResultView = BuiltView<ThreeWayPartition>;
// build(spec, cc) (core/built.hpp): the two kernels DevicePartition::If launches (CUB's
// DeviceThreeWayPartitionInitKernel and DeviceThreeWayPartitionKernel) for T* input and
// outputs, a selected_type* count pair, CUB's packed tile state, its streaming context
// over the offset type and CUB's policy selector.
using algos::build;
}  // namespace three_way_partition

}  // namespace cccl_cache::algos
