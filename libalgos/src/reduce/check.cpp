// Reduce's checks of a build record (Reduce::check): a plausible policy, and what the
// cubin says of its kernels agreeing with the record (core/check.hpp). Every stored
// entry and every fresh build goes through them.
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "core/accumulator.hpp"
#include "core/check.hpp"

namespace cccl_cache::algos {

Result<void> Reduce::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  using algos::detail::in_range;
  using algos::detail::warp_block;
  if (!warp_block(p.multi_tile_threads) || !in_range(p.multi_tile_items, 1, 256) ||
      !warp_block(p.single_tile_threads) || !in_range(p.single_tile_items, 1, 256) ||
      !algos::detail::plausible_accumulator(p.accum_size, p.accum_align))
    return algos::detail::implausible_policy("reduce", p);
  // The single-tile and second-pass kernels share CUB's template: each role is marked by
  // the selector subclass codegen.cpp gives it. Every kernel is compiled with
  // __launch_bounds__(its pass's threads).
  const algos::detail::KernelRole roles[kKernels] = {
      {"single-tile", "28DeviceReduceSingleTileKernel", p.single_tile_threads, true, false,
       "22cccl_cache_single_tile"},
      {"first-pass", "18DeviceReduceKernel", p.multi_tile_threads, true, false,
       "21cccl_cache_first_pass"},
      {"second-pass", "28DeviceReduceSingleTileKernel", p.single_tile_threads, true, false,
       "22cccl_cache_second_pass"}};
  return algos::detail::check_kernels(record, roles, "reduce");
}

}  // namespace cccl_cache::algos
