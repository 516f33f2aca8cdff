// Segmented reduce's checks of a build record (SegmentedReduce::check): a plausible
// policy, and what the cubin says of its kernel agreeing with the record
// (core/check.hpp). Every stored entry and every fresh build goes through them.
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "core/check.hpp"

namespace cccl_cache::algos {

Result<void> SegmentedReduce::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  using algos::detail::in_range;
  // Warp shapes divide the block (segments per block = threads / warp threads).
  const auto warp_ok = [&](std::uint32_t warp, std::uint32_t items) {
    return in_range(warp, 1, 32) && p.threads % warp == 0 && in_range(items, 1, 256);
  };
  if (!algos::detail::warp_block(p.threads) || !in_range(p.items, 1, 256) ||
      !warp_ok(p.medium_warp_threads, p.medium_items) || !warp_ok(p.small_warp_threads, p.small_items))
    return algos::detail::implausible_policy("segmented_reduce", p);
  // The kernel is compiled with __launch_bounds__(the block's threads).
  const algos::detail::KernelRole roles[kKernels] = {
      {"segmented reduce", "27DeviceSegmentedReduceKernel", p.threads, true, false}};
  return algos::detail::check_kernels(record, roles, "segmented_reduce");
}

}  // namespace cccl_cache::algos
