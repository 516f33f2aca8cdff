// Segmented sort's checks of a build record (SegmentedSort::check): a plausible policy,
// and what the cubin says of its kernels agreeing with the record (core/check.hpp). Every
// stored entry and every fresh build goes through them.
#include "core/check.hpp"

#include "segmented_sort/dispatch.hpp"

namespace cccl_cache::algos {

Result<void> SegmentedSort::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  using algos::detail::in_range;
  using algos::detail::warp_block;
  // Warp shapes divide their block (segments per block = threads / warp threads).
  const auto warps_ok = [&](std::uint32_t threads, std::uint32_t warp, std::uint32_t items) {
    return warp_block(threads) && in_range(warp, 1, 32) && threads % warp == 0 &&
           in_range(items, 1, 64);
  };
  if (!warp_block(p.large_threads) || !in_range(p.large_items, 1, 64) ||
      !in_range(p.radix_bits, 1, 8) || !warps_ok(p.medium_threads, p.medium_warp_threads, p.medium_items) ||
      !warps_ok(p.small_threads, p.small_warp_threads, p.small_items) ||
      !warp_block(p.partition_threads) || !in_range(p.partition_items, 1, 256))
    return algos::detail::implausible_policy("segmented_sort", p);
  // The three sort kernels are compiled with __launch_bounds__(their block) and keep their
  // tiles in static shared memory; the partition's init kernel has no bounds.
  const auto threads = segmented_sort::detail::launch_threads(p);
  const algos::detail::KernelRole roles[kKernels] = {
      {"fallback", "33DeviceSegmentedSortFallbackKernel", threads[0], true, true},
      {"small segments", "30DeviceSegmentedSortKernelSmall", threads[1], true, true},
      {"large segments", "30DeviceSegmentedSortKernelLarge", threads[2], true, true},
      {"partition init", "33DeviceThreeWayPartitionInitKernel", threads[3], false, false},
      {"partition", "29DeviceThreeWayPartitionKernel", threads[4], true, true}};
  return algos::detail::check_kernels(record, roles, "segmented_sort");
}

}  // namespace cccl_cache::algos
