// Radix sort's build result: the generic record (core/built.hpp) with its kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/radix_sort/spec.hpp"

namespace cccl_cache::algos::radix_sort {

// CUB's RadixSortPolicy as its host dispatch reads it, read from the kernels' own compile
// for the target CC (the policy probe), never guessed on the host.
struct Policy {
  std::uint32_t onesweep = 0;  // RadixSortAlgorithm: 1 onesweep, 0 multi-pass
  std::uint32_t single_tile_threads = 0, single_tile_items = 0;
  std::uint32_t onesweep_threads = 0, onesweep_items = 0, onesweep_radix_bits = 0;
  std::uint32_t histogram_threads = 0, exclusive_sum_threads = 0;
  std::uint32_t upsweep_threads = 0, upsweep_items = 0;
  std::uint32_t alt_upsweep_threads = 0, alt_upsweep_items = 0;
  std::uint32_t downsweep_threads = 0, downsweep_items = 0, downsweep_radix_bits = 0;
  std::uint32_t alt_downsweep_threads = 0, alt_downsweep_items = 0, alt_downsweep_radix_bits = 0;
  std::uint32_t scan_threads = 0, scan_items = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("onesweep", p.onesweep);
    v("single_tile_threads", p.single_tile_threads);
    v("single_tile_items", p.single_tile_items);
    v("onesweep_threads", p.onesweep_threads);
    v("onesweep_items", p.onesweep_items);
    v("onesweep_radix_bits", p.onesweep_radix_bits);
    v("histogram_threads", p.histogram_threads);
    v("exclusive_sum_threads", p.exclusive_sum_threads);
    v("upsweep_threads", p.upsweep_threads);
    v("upsweep_items", p.upsweep_items);
    v("alt_upsweep_threads", p.alt_upsweep_threads);
    v("alt_upsweep_items", p.alt_upsweep_items);
    v("downsweep_threads", p.downsweep_threads);
    v("downsweep_items", p.downsweep_items);
    v("downsweep_radix_bits", p.downsweep_radix_bits);
    v("alt_downsweep_threads", p.alt_downsweep_threads);
    v("alt_downsweep_items", p.alt_downsweep_items);
    v("alt_downsweep_radix_bits", p.alt_downsweep_radix_bits);
    v("scan_threads", p.scan_threads);
    v("scan_items", p.scan_items);
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels: the ones CUB's dispatch can launch for the policy's algorithm.
// Slot 0 is the single-tile kernel; slots 1..5 are, for a multi-pass policy, upsweep,
// alt upsweep, scan bins, downsweep, alt downsweep and, for a onesweep policy, histogram,
// exclusive sum, init (bins and counters), init (look-back), onesweep.
inline constexpr std::size_t kSlots = 6;
enum Kernel : std::size_t {
  single_tile = 0,
  upsweep = 1, alt_upsweep = 2, scan_bins = 3, downsweep = 4, alt_downsweep = 5,
  histogram = 1, exclusive_sum = 2, init_bins = 3, init_lookback = 4, onesweep_kernel = 5,
};

}  // namespace cccl_cache::algos::radix_sort

namespace cccl_cache::algos {

namespace radix_sort {
class Executable;  // executable.hpp
}

// Radix sort's traits for the core (core/built.hpp, AlgorithmCache).
struct RadixSort : AlgorithmBase<RadixSort, radix_sort::Spec> {
  using Spec = radix_sort::Spec;
  using Policy = radix_sort::Policy;
  using Executable = radix_sort::Executable;
  static constexpr std::size_t kKernels = radix_sort::kSlots;
  // Each slot's role: multi-pass | onesweep (for people: inspect).
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {
      "single_tile", "upsweep|histogram", "alt_upsweep|exclusive_sum",
      "scan_bins|init_bins", "downsweep|init_lookback", "alt_downsweep|onesweep"};
  // A plausible policy, kernel names that name the role their slot has under the
  // policy's algorithm, launch bounds that agree with the block sizes launched.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // radix_sort/dispatch.cu
  static Result<Executable> bind(const BuiltView<RadixSort>& built, int device);
};

namespace radix_sort {
using BuildResult = Built<RadixSort>;
using BuildResultView = BuiltView<RadixSort>;
using algos::build;  // core/built.hpp
}  // namespace radix_sort

}  // namespace cccl_cache::algos
