// for_each's checks of a build record (ForEach::check): a plausible policy, and what the
// cubin says of its kernel agreeing with the record. Every stored entry and every fresh
// build goes through them.
#include "cccl_cache/algos/for_each/build_result.hpp"
#include "core/check.hpp"

namespace cccl_cache::algos {

Result<void> ForEach::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  // A grid of ceil(n / (threads * items)) blocks: at most 64 items per thread keeps a tile
  // well inside any offset type.
  if (!detail::warp_block(p.block_threads) || !detail::in_range(p.items_per_thread, 1, 64))
    return detail::implausible_policy("for_each", p);
  // Compiled with __launch_bounds__(ForPolicy::threads_per_block).
  const detail::KernelRole roles[kKernels] = {
      {"for_each", "13static_kernel", p.block_threads, true, false}};
  return detail::check_kernels(record, roles, "for_each");
}

}  // namespace cccl_cache::algos
