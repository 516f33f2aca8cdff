// histogram_even's checks of a build record (HistogramEven::check): a plausible policy,
// and what the cubin says of its kernels agreeing with the record (core/check.hpp).
// Every stored entry and every fresh build goes through them.
#include "core/check.hpp"

#include "cccl_cache/algos/histogram_even/build_result.hpp"

namespace cccl_cache::algos {

Result<void> HistogramEven::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  using histogram_even::kInitBlockThreads;
  if (!detail::warp_block(p.threads) || !detail::in_range(p.pixels, 1, 64))
    return detail::implausible_policy("histogram_even", p);
  // The init kernel has no launch bounds; both sweeps are compiled with
  // __launch_bounds__(threads), told apart by their privatized shared bins (256 or 0,
  // then the one channel of one active channel), and the shared one keeps its bins in
  // static shared memory.
  const detail::KernelRole roles[kKernels] = {
      {"init", "25DeviceHistogramInitKernel", kInitBlockThreads, false, false},
      {"sweep_shared", "36DeviceHistogramSweepDeviceInitKernel", p.threads, true, true,
       "Li256ELi1ELi1E"},
      {"sweep_global", "36DeviceHistogramSweepDeviceInitKernel", p.threads, true, false,
       "Li0ELi1ELi1E"}};
  return detail::check_kernels(record, roles, "histogram_even");
}

}  // namespace cccl_cache::algos
