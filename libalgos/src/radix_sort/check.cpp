// Radix sort's checks of a build record (RadixSort::check): a plausible policy, and what
// the cubin says of its kernels agreeing with the record. Every stored entry and every
// fresh build goes through them (core/built.hpp typed_view, core/build.hpp).
#include <string>

#include "radix_sort/dispatch.hpp"

namespace cccl_cache::algos {
namespace {

using namespace radix_sort;
using radix_sort::detail::launch_threads;

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
// The most static shared memory a kernel can declare (larger needs dynamic memory).
constexpr std::uint64_t kMaxStaticSharedBytes = 48 * 1024;

tl::unexpected<Error> bad(const std::string& what) { return fail(ErrorCode::corrupt, what); }

bool plausible(const Policy& p) {
  auto in = [](std::uint32_t v, std::uint32_t lo, std::uint32_t hi) { return v >= lo && v <= hi; };
  for (std::uint32_t t : launch_threads(p))
    if (!in(t, 1, 1024)) return false;
  if (p.onesweep > 1 || !in(p.single_tile_items, 1, 64)) return false;
  if (p.onesweep) return in(p.onesweep_items, 1, 64) && in(p.onesweep_radix_bits, 1, 16);
  return in(p.upsweep_items, 1, 64) && in(p.alt_upsweep_items, 1, 64) &&
         in(p.downsweep_items, 1, 64) && in(p.alt_downsweep_items, 1, 64) &&
         in(p.scan_items, 1, 64) && in(p.downsweep_radix_bits, 1, 16) &&
         in(p.alt_downsweep_radix_bits, 1, 16);
}

}  // namespace

Result<void> RadixSort::check(const Spec&, const Policy& p, const BuildRecordView& r) {
  if (!plausible(p)) return bad("implausible radix sort policy");
  const Role* roles = p.onesweep ? kOnesweep : kMultiPass;
  const auto threads = launch_threads(p);
  for (std::size_t i = 0; i < kSlots; ++i) {
    const auto name = r.kernel_names[i];
    const std::string what = std::string(roles[i].what) + " kernel " + std::string(name);
    // Its own template (and instance), and no other slot's.
    bool names_role = name.starts_with("_Z") && name.find(roles[i].mangled) != name.npos &&
                      (roles[i].marker.empty() || name.find(roles[i].marker) != name.npos);
    for (std::size_t j = 0; j < kSlots; ++j)
      if (roles[j].mangled != roles[i].mangled && name.find(roles[j].mangled) != name.npos)
        names_role = false;
    if (i == init_bins && p.onesweep && name.find(kOnesweep[init_lookback].marker) != name.npos)
      names_role = false;
    if (!names_role)
      return bad("the " + what + " does not name a radix sort " + roles[i].what + " kernel (" +
                 (p.onesweep ? "onesweep" : "multi-pass") + " policy)");
    if (!r.has_kernel_facts) continue;  // a fresh build's own view: checked as stored
    const auto& k = r.kernel_facts[i];
    const std::array<std::uint32_t, 3> want = {threads[i], 1, 1};
    // All but exclusive sum and init are compiled with __launch_bounds__(the policy's
    // block size); those two must at least allow the block size launched.
    const bool bounded = !(p.onesweep && (i == exclusive_sum || i == init_bins || i == init_lookback));
    if (bounded && !k.has_max_threads) return bad(what + " carries no launch bounds");
    if (k.has_max_threads &&
        (bounded ? k.max_threads != want
                 : std::uint64_t{k.max_threads[0]} * k.max_threads[1] * k.max_threads[2] < want[0]))
      return bad(what + " was compiled for at most " + std::to_string(k.max_threads[0]) +
                 " threads, the entry launches " + std::to_string(want[0]));
    if (k.has_reqntid && k.reqntid != want)
      return bad(what + " requires another block shape than the entry launches");
    if (k.static_shared_bytes > kMaxStaticSharedBytes)
      return bad(what + " declares " + std::to_string(k.static_shared_bytes) +
                 " bytes of static shared memory");
  }
  return {};
}

}  // namespace cccl_cache::algos
