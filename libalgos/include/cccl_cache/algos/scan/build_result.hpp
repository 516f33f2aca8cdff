// The scans' build results: the generic record (core/built.hpp) with their kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/scan/spec.hpp"

namespace cccl_cache::algos::scan {

// The policy CUB's scan kernels were compiled with for the target CC (read from their
// own compile, never guessed on the host): CUB picks decoupled look-back (every CC
// before 10.0) or the warp-specialized look-ahead scan (10.0 and up); and the size of
// the accumulator CUB derives for the operator (core/accumulator.hpp).
struct Policy {
  std::uint32_t algorithm = 0;         // cub::ScanAlgorithm: 0 lookback, 1 lookahead
  std::uint32_t block_threads = 0;     // the scan kernel's block size (its launch bounds)
  std::uint32_t items_per_thread = 0;  // of the policy in use
  // Look-ahead only (CUB's defaults otherwise); stage counts as CUB's int, two's complement.
  std::uint32_t reduce_and_scan_warps = 0;
  std::uint32_t lookahead_items_per_thread = 0;
  std::uint32_t lookahead_stages = 0;
  std::uint32_t block_idx_stages = 0;
  std::uint32_t accum_size = 0;  // sizeof(AccumT): the tile state's value
  std::uint32_t accum_align = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("algorithm", p.algorithm);
    v("block_threads", p.block_threads);
    v("items_per_thread", p.items_per_thread);
    v("reduce_and_scan_warps", p.reduce_and_scan_warps);
    v("lookahead_items_per_thread", p.lookahead_items_per_thread);
    v("lookahead_stages", p.lookahead_stages);
    v("block_idx_stages", p.block_idx_stages);
    v("accum_size", p.accum_size);
    v("accum_align", p.accum_align);
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order.
enum Kernel : std::size_t { init_kernel = 0, scan_kernel = 1 };

// CUB launches the init kernel (tile-state initialization) with this many threads; it
// is compiled with __launch_bounds__(128).
inline constexpr std::uint32_t kInitBlockThreads = 128;

template <AlgorithmId Id>
class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::scan

namespace cccl_cache::algos {

// The traits of inclusive_scan and exclusive_scan for the core (core/built.hpp,
// AlgorithmCache): one implementation, the algorithm id as parameter.
template <AlgorithmId Id>
struct Scan : AlgorithmBase<Scan<Id>, scan::Spec<Id>> {
  using Spec = scan::Spec<Id>;
  using Policy = scan::Policy;
  using Executable = scan::Executable<Id>;
  static constexpr std::size_t kKernels = 2;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"init", "scan"};
  // A plausible policy, kernel names that name their roles, launch bounds that agree.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  // The host dispatch's side of the kernel interface (scan/dispatch.cu).
  static const std::string& dispatch_abi();
  static Result<Executable> bind(const BuiltView<Scan>& built, int device);
};

using InclusiveScan = Scan<AlgorithmId::inclusive_scan>;
using ExclusiveScan = Scan<AlgorithmId::exclusive_scan>;

namespace scan {
template <AlgorithmId Id>
using BuildResult = Built<Scan<Id>>;
template <AlgorithmId Id>
using BuildResultView = BuiltView<Scan<Id>>;
// build(spec, cc) (core/built.hpp): CUB's two scan kernels (tile-state init, scan).
using algos::build;
}  // namespace scan

}  // namespace cccl_cache::algos
