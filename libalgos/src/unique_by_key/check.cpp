// unique_by_key's checks of a build record (UniqueByKey::check): a plausible policy, and
// what the cubin says of its kernels agreeing with the record (core/check.hpp). Every
// stored entry and every fresh build goes through them.
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "core/check.hpp"

namespace cccl_cache::algos {

Result<void> UniqueByKey::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  using algos::detail::in_range;
  if (!algos::detail::warp_block(p.threads) || !in_range(p.items, 1, 256) || p.vsmem_per_block != 0)
    return algos::detail::implausible_policy("unique_by_key", p);
  // The init kernel has no launch bounds (CUB launches it with 128 threads); the sweep
  // kernel is compiled with __launch_bounds__(the policy's threads) and keeps its tile in
  // static shared memory.
  const algos::detail::KernelRole roles[kKernels] = {
      {"init", "23DeviceCompactInitKernel", unique_by_key::kInitBlockThreads, false, false},
      {"sweep", "28DeviceUniqueByKeySweepKernel", p.threads, true, true}};
  return algos::detail::check_kernels(record, roles, "unique_by_key");
}

}  // namespace cccl_cache::algos
