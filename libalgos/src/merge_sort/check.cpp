// Merge sort's checks of a build record (MergeSort::check): a plausible tile shape, and
// what the cubin says of its kernels agreeing with the record (core/check.hpp). Every
// stored entry and every fresh build goes through them (core/built.hpp typed_view,
// core/build.hpp).
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "core/check.hpp"
#include "merge_sort/dispatch.hpp"

namespace cccl_cache::algos {

Result<void> MergeSort::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  if (!algos::detail::in_range(p.block_threads, 1, 1024) ||
      !algos::detail::in_range(p.items_per_tile, 1, 1u << 20) ||
      p.items_per_tile % p.block_threads != 0)
    return algos::detail::implausible_policy("merge sort", p);
  // Block sort and merge are compiled with __launch_bounds__(block_threads); without
  // virtual shared memory they keep their tile in static shared memory. Partition is
  // launched with CUB's fixed block size and has no bounds of its own.
  const algos::detail::KernelRole roles[kKernels] = {
      {"block sort", "30DeviceMergeSortBlockSortKernel", p.block_threads, true,
       p.block_sort_vsmem_per_block == 0},
      {"partition", "30DeviceMergeSortPartitionKernel",
       merge_sort::detail::kPartitionBlockThreads, false, false},
      {"merge", "26DeviceMergeSortMergeKernel", p.block_threads, true,
       p.merge_vsmem_per_block == 0}};
  return algos::detail::check_kernels(record, roles, "merge sort");
}

}  // namespace cccl_cache::algos
