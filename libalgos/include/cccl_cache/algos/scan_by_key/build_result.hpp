// scan_by_key's build result: the generic record (core/built.hpp) with its kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/scan_by_key/spec.hpp"

namespace cccl_cache::algos::scan_by_key {

// The look-back policy CUB's scan-by-key kernel was compiled with for the target CC
// (read from its own compile, never guessed on the host): the tile shape, and the size
// of the accumulator CUB derives for the operator (core/accumulator.hpp).
struct Policy {
  std::uint32_t block_threads = 0;     // the scan kernel's block size (its launch bounds)
  std::uint32_t items_per_thread = 0;
  std::uint32_t accum_size = 0;  // sizeof(AccumT): the tile state's value
  std::uint32_t accum_align = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("block_threads", p.block_threads);
    v("items_per_thread", p.items_per_thread);
    v("accum_size", p.accum_size);
    v("accum_align", p.accum_align);
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order.
enum Kernel : std::size_t { init_kernel = 0, scan_kernel = 1 };

// CUB launches the init kernel (tile states, each tile's predecessor key) with this many
// threads (INIT_KERNEL_THREADS); it has no launch bounds.
inline constexpr std::uint32_t kInitBlockThreads = 128;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::scan_by_key

namespace cccl_cache::algos {

// The traits of scan_by_key for the core (core/built.hpp, AlgorithmCache).
struct ScanByKey : AlgorithmBase<ScanByKey, scan_by_key::Spec> {
  using Spec = scan_by_key::Spec;
  using Policy = scan_by_key::Policy;
  using Executable = scan_by_key::Executable;
  static constexpr std::size_t kKernels = 2;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"init", "scan"};
  // A plausible policy, kernel names that name their roles, launch bounds that agree.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  // The host dispatch's side of the kernel interface (scan_by_key/dispatch.cu).
  static const std::string& dispatch_abi();
  static Result<Executable> bind(const BuiltView<ScanByKey>& built, int device);
};

namespace scan_by_key {
using BuildResult = Built<ScanByKey>;
using BuildResultView = BuiltView<ScanByKey>;
// build(spec, cc) (core/built.hpp): CUB's two scan-by-key kernels (init, scan).
using algos::build;
}  // namespace scan_by_key

}  // namespace cccl_cache::algos
