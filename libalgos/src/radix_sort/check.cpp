// Radix sort's checks of a build record (RadixSort::check): a plausible policy, and what
// the cubin says of its kernels agreeing with the record (core/check.hpp). Every stored
// entry and every fresh build goes through them (core/built.hpp typed_view, core/build.hpp).
#include "core/check.hpp"
#include "core/materialize.hpp"

#include "radix_sort/dispatch.hpp"

namespace cccl_cache::algos {
namespace {

using namespace radix_sort;
using algos::detail::in_range;
using algos::detail::KernelRole;

// Each slot's kernel template as its lowered name spells it (the Itanium <source-name>),
// and the template argument that tells the two instances of one template apart: alt
// digit bits (bool true) and the init kernel for look-back (<selector, int, int>). The
// block sizes and launch bounds follow from the policy (check below).
constexpr KernelRole kMultiPass[kSlots] = {
    {.role = "single tile", .mangled = "31DeviceRadixSortSingleTileKernel"},
    {.role = "upsweep", .mangled = "28DeviceRadixSortUpsweepKernel", .marker = "Lb0E"},
    {.role = "alt upsweep", .mangled = "28DeviceRadixSortUpsweepKernel", .marker = "Lb1E"},
    {.role = "scan bins", .mangled = "23RadixSortScanBinsKernel"},
    {.role = "downsweep", .mangled = "30DeviceRadixSortDownsweepKernel", .marker = "Lb0E"},
    {.role = "alt downsweep", .mangled = "30DeviceRadixSortDownsweepKernel", .marker = "Lb1E"}};
constexpr KernelRole kOnesweep[kSlots] = {
    {.role = "single tile", .mangled = "31DeviceRadixSortSingleTileKernel"},
    {.role = "histogram", .mangled = "30DeviceRadixSortHistogramKernel"},
    {.role = "exclusive sum", .mangled = "33DeviceRadixSortExclusiveSumKernel"},
    {.role = "init bins", .mangled = "25DeviceRadixSortInitKernel"},
    {.role = "init look-back", .mangled = "25DeviceRadixSortInitKernel", .marker = "EiiEE"},
    {.role = "onesweep", .mangled = "29DeviceRadixSortOnesweepKernel"}};

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

Result<void> RadixSort::check(const Spec& spec, const Policy& p, const BuildRecordView& record) {
  if (!plausible(p)) return algos::detail::implausible_policy("radix sort", p);
  const auto threads = radix_sort::detail::launch_threads(p);
  // All but exclusive sum and init are compiled with __launch_bounds__(the policy's block
  // size); those two must at least allow the block size launched.
  KernelRole checked[kSlots + 1];
  for (std::size_t i = 0; i < kSlots; ++i) {
    checked[i] = p.onesweep ? kOnesweep[i] : kMultiPass[i];
    checked[i].threads = threads[i];
    checked[i].bounded =
        !(p.onesweep && (i == exclusive_sum || i == init_bins || i == init_lookback));
  }
  checked[materialize_values] = algos::detail::kMaterializeRole;
  return algos::detail::check_kernels(record, std::span(checked, kernel_count(spec)),
                                      p.onesweep ? "onesweep radix sort" : "multi-pass radix sort");
}

}  // namespace cccl_cache::algos
