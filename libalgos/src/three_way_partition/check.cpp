// three-way partition's checks of a build record (ThreeWayPartition::check): a plausible
// policy, and what the cubin says of its kernels agreeing with the record
// (core/check.hpp). Every stored entry and every fresh build goes through them.
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "core/check.hpp"

namespace cccl_cache::algos {

Result<void> ThreeWayPartition::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  using three_way_partition::kInitBlockThreads;
  if (!detail::warp_block(p.threads) || !detail::in_range(p.items, 1, 256))
    return detail::implausible_policy("three_way_partition", p);
  // The init kernel has no launch bounds; the partition kernel is compiled with
  // __launch_bounds__(threads) and keeps its tile in static shared memory.
  const detail::KernelRole roles[kKernels] = {
      {"init", "33DeviceThreeWayPartitionInitKernel", kInitBlockThreads, false, false},
      {"partition", "29DeviceThreeWayPartitionKernel", p.threads, true, true}};
  return detail::check_kernels(record, roles, "three_way_partition");
}

}  // namespace cccl_cache::algos
