// The scans' checks of a build record (Scan<Id>::check): a plausible policy, and what
// the cubin says of its kernels agreeing with the record (core/check.hpp). Every stored
// entry and every fresh build goes through them (core/built.hpp typed_view, core/build.hpp).
#include "core/accumulator.hpp"
#include "core/check.hpp"

#include "cccl_cache/algos/scan/build_result.hpp"

namespace cccl_cache::algos {

template <AlgorithmId Id>
Result<void> Scan<Id>::check(const Spec& spec, const Policy& p, const BuildRecordView& record) {
  using algos::detail::in_range;
  const bool lookahead = p.algorithm == 1;
  if (p.algorithm > 1 || !algos::detail::warp_block(p.block_threads) ||
      !in_range(p.items_per_thread, 1, 1024) ||
      !algos::detail::stand_in_accumulator(p.accum_size, p.accum_align, spec.type) ||
      (lookahead && (!in_range(p.reduce_and_scan_warps, 1, 32) ||
                     !in_range(p.lookahead_items_per_thread, 1, 1024))))
    return algos::detail::implausible_policy("scan", p);
  // The init kernel is compiled for CUB's 128 threads and the scan kernel for the
  // policy's block size (its launch bounds); a look-back scan kernel keeps its tile in
  // static shared memory.
  const algos::detail::KernelRole roles[kKernels] = {
      {"init", "20DeviceScanInitKernel", scan::kInitBlockThreads, true, false},
      {"scan", "16DeviceScanKernel", p.block_threads, true, !lookahead}};
  return algos::detail::check_kernels(record, roles, "scan");
}

template Result<void> InclusiveScan::check(const InclusiveScan::Spec&, const scan::Policy&,
                                           const BuildRecordView&);
template Result<void> ExclusiveScan::check(const ExclusiveScan::Spec&, const scan::Policy&,
                                           const BuildRecordView&);

}  // namespace cccl_cache::algos
