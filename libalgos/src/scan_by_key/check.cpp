// scan_by_key's checks of a build record (ScanByKey::check): a plausible policy, and
// what the cubin says of its kernels agreeing with the record (core/check.hpp). Every
// stored entry and every fresh build goes through them.
#include "core/accumulator.hpp"
#include "core/check.hpp"

#include "cccl_cache/algos/scan_by_key/build_result.hpp"

namespace cccl_cache::algos {

Result<void> ScanByKey::check(const Spec& spec, const Policy& p, const BuildRecordView& record) {
  using algos::detail::in_range;
  if (!algos::detail::warp_block(p.block_threads) || !in_range(p.items_per_thread, 1, 1024) ||
      !algos::detail::stand_in_accumulator(p.accum_size, p.accum_align, spec.value_type))
    return algos::detail::implausible_policy("scan_by_key", p);
  // The init kernel has no launch bounds and runs CUB's 128 threads; the scan kernel is
  // bounded by the policy's block size and keeps its tile in static shared memory.
  const algos::detail::KernelRole roles[kKernels] = {
      {"init", "25DeviceScanByKeyInitKernel", scan_by_key::kInitBlockThreads, false, false},
      {"scan", "21DeviceScanByKeyKernel", p.block_threads, true, true}};
  return algos::detail::check_kernels(record, roles, "scan_by_key");
}

}  // namespace cccl_cache::algos
