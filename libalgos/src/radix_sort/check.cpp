// Radix sort's checks of a build record (RadixSort::check): a plausible policy, and what
// the cubin says of its kernels agreeing with the record (core/check.hpp). Every stored
// entry and every fresh build goes through them (core/built.hpp typed_view, core/build.hpp).
#include "core/check.hpp"

#include "radix_sort/dispatch.hpp"

namespace cccl_cache::algos {
namespace {

using namespace radix_sort;
using algos::detail::in_range;
using algos::detail::KernelRole;

// Each slot's kernel template as its lowered name spells it (the Itanium <source-name>),
// and the template argument that tells the two instances of one template apart: alt
// digit bits (bool true) and the init kernel for look-back (<selector, int, int>).
struct Role {
  const char* what;
  std::string_view mangled;
  std::string_view marker;
};
constexpr Role kMultiPass[kSlots] = {
    {"single tile", "31DeviceRadixSortSingleTileKernel", ""},
    {"upsweep", "28DeviceRadixSortUpsweepKernel", "Lb0E"},
    {"alt upsweep", "28DeviceRadixSortUpsweepKernel", "Lb1E"},
    {"scan bins", "23RadixSortScanBinsKernel", ""},
    {"downsweep", "30DeviceRadixSortDownsweepKernel", "Lb0E"},
    {"alt downsweep", "30DeviceRadixSortDownsweepKernel", "Lb1E"}};
constexpr Role kOnesweep[kSlots] = {
    {"single tile", "31DeviceRadixSortSingleTileKernel", ""},
    {"histogram", "30DeviceRadixSortHistogramKernel", ""},
    {"exclusive sum", "33DeviceRadixSortExclusiveSumKernel", ""},
    {"init bins", "25DeviceRadixSortInitKernel", ""},
    {"init look-back", "25DeviceRadixSortInitKernel", "EiiEE"},
    {"onesweep", "29DeviceRadixSortOnesweepKernel", ""}};

bool plausible(const Policy& p) {
  for (std::uint32_t t : radix_sort::detail::launch_threads(p))
    if (!in_range(t, 1, 1024)) return false;
  if (p.onesweep > 1 || !in_range(p.single_tile_items, 1, 64)) return false;
  if (p.onesweep)
    return in_range(p.onesweep_items, 1, 64) && in_range(p.onesweep_radix_bits, 1, 16);
  return in_range(p.upsweep_items, 1, 64) && in_range(p.alt_upsweep_items, 1, 64) &&
         in_range(p.downsweep_items, 1, 64) && in_range(p.alt_downsweep_items, 1, 64) &&
         in_range(p.scan_items, 1, 64) && in_range(p.downsweep_radix_bits, 1, 16) &&
         in_range(p.alt_downsweep_radix_bits, 1, 16);
}

}  // namespace

Result<void> RadixSort::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  if (!plausible(p)) return algos::detail::implausible_policy("radix sort", p);
  const Role* roles = p.onesweep ? kOnesweep : kMultiPass;
  const auto threads = radix_sort::detail::launch_threads(p);
  // All but exclusive sum and init are compiled with __launch_bounds__(the policy's block
  // size); those two must at least allow the block size launched.
  KernelRole checked[kSlots];
  for (std::size_t i = 0; i < kSlots; ++i) {
    const bool bounded = !(p.onesweep && (i == exclusive_sum || i == init_bins || i == init_lookback));
    checked[i] = {roles[i].what, roles[i].mangled, threads[i], bounded, false, roles[i].marker};
  }
  return algos::detail::check_kernels(record, checked,
                                      p.onesweep ? "onesweep radix sort" : "multi-pass radix sort");
}

}  // namespace cccl_cache::algos
