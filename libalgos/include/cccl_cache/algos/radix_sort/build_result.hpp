// Radix sort's build result: the generic record (core/built.hpp) with its kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/policy_list.hpp"
#include "cccl_cache/algos/radix_sort/spec.hpp"

namespace cccl_cache::algos::radix_sort {

// CUB's RadixSortPolicy as its host dispatch reads it, read from the kernels' own compile
// for the target CC (the policy probe), never guessed on the host: the algorithm, then
// each value with the member of CUB's RadixSortPolicy it mirrors (core/policy_list.hpp).
#define CCCL_CACHE_RADIX_SORT_POLICY(X)                                  \
  X(single_tile_threads, single_tile.threads_per_block)                  \
  X(single_tile_items, single_tile.items_per_thread)                     \
  X(onesweep_threads, onesweep.threads_per_block)                        \
  X(onesweep_items, onesweep.items_per_thread)                           \
  X(onesweep_radix_bits, onesweep.radix_bits)                            \
  X(histogram_threads, histogram.threads_per_block)                      \
  X(exclusive_sum_threads, exclusive_sum.threads_per_block)              \
  X(upsweep_threads, upsweep.threads_per_block)                          \
  X(upsweep_items, upsweep.items_per_thread)                             \
  X(alt_upsweep_threads, alt_upsweep.threads_per_block)                  \
  X(alt_upsweep_items, alt_upsweep.items_per_thread)                     \
  X(downsweep_threads, downsweep.threads_per_block)                      \
  X(downsweep_items, downsweep.items_per_thread)                         \
  X(downsweep_radix_bits, downsweep.radix_bits)                          \
  X(alt_downsweep_threads, alt_downsweep.threads_per_block)              \
  X(alt_downsweep_items, alt_downsweep.items_per_thread)                 \
  X(alt_downsweep_radix_bits, alt_downsweep.radix_bits)                  \
  X(scan_threads, scan.lookback.threads_per_block)                       \
  X(scan_items, scan.lookback.items_per_thread)

struct Policy {
  std::uint32_t onesweep = 0;  // RadixSortAlgorithm: 1 onesweep, 0 multi-pass
  CCCL_CACHE_RADIX_SORT_POLICY(CCCL_CACHE_POLICY_MEMBER)

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("onesweep", p.onesweep);
    CCCL_CACHE_RADIX_SORT_POLICY(CCCL_CACHE_POLICY_FIELD)
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels: the ones CUB's dispatch can launch for the policy's algorithm.
// Slot 0 is the single-tile kernel; slots 1..5 are, for a multi-pass policy, upsweep,
// alt upsweep, scan bins, downsweep, alt downsweep and, for a onesweep policy, histogram,
// exclusive sum, init (bins and counters), init (look-back), onesweep. A spec with a
// counting values_in adds slot 6, the kernel that materializes its values
// (core/materialize.hpp); only its records have it.
inline constexpr std::size_t kSlots = 6;
enum Kernel : std::size_t {
  single_tile = 0, materialize_values = 6,
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
  // Each slot's role: multi-pass | onesweep (for people: inspect); the last one only in
  // a counting values_in spec's records.
  static constexpr std::array<std::string_view, kKernels + 1> kKernelRoles = {
      "single_tile",           "upsweep|histogram",      "alt_upsweep|exclusive_sum",
      "scan_bins|init_bins",   "downsweep|init_lookback", "alt_downsweep|onesweep",
      "materialize_values"};
  static std::size_t kernel_count(const Spec& spec) noexcept {
    return spec.values_in.is_pointer() ? kKernels : kKernels + 1;
  }
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
