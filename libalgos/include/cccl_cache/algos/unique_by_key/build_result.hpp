// unique_by_key's build result: the generic record (core/built.hpp) with its kernels
// and runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"

namespace cccl_cache::algos::unique_by_key {

// The values CUB's host dispatch needs, read from the sweep kernel's own compile for the
// target CC (CUB's policy selector for DeviceSelect::UniqueByKey over the key and value
// types, after its virtual-shared-memory fallback): the tile shape, and the virtual
// shared memory a block would need (always 0 for the supported 1..8-byte types; a
// build needing some is refused: CCCL 3.5's dispatch with run-time policies allocates
// none).
struct Policy {
  std::uint32_t threads = 0;  // the sweep kernel's block (its __launch_bounds__)
  std::uint32_t items = 0;    // items per thread
  std::uint32_t vsmem_per_block = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("threads", p.threads);
    v("items", p.items);
    v("vsmem_per_block", p.vsmem_per_block);
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order.
enum Kernel : std::size_t { init_kernel = 0, sweep_kernel = 1 };

// CUB launches the init kernel (tile states, the number selected set to 0) with this
// many threads per block.
inline constexpr std::uint32_t kInitBlockThreads = 128;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::unique_by_key

namespace cccl_cache::algos {

// unique_by_key's traits for the core (core/built.hpp, AlgorithmCache).
struct UniqueByKey : AlgorithmBase<UniqueByKey, unique_by_key::Spec> {
  using Spec = unique_by_key::Spec;
  using Policy = unique_by_key::Policy;
  using Executable = unique_by_key::Executable;
  static constexpr std::size_t kKernels = 2;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"init", "sweep"};
  // A plausible policy, kernel names that name their roles, launch bounds that agree.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // unique_by_key/dispatch.cu
  static Result<Executable> bind(const BuiltView<UniqueByKey>& built, int device);
};

namespace unique_by_key {
using BuildResult = Built<UniqueByKey>;
using BuildResultView = BuiltView<UniqueByKey>;
// build(spec, cc) (core/built.hpp): the two kernels DeviceSelect::UniqueByKey launches
// (CUB's DeviceCompactInitKernel and DeviceUniqueByKeySweepKernel) for K* and V* inputs
// and outputs, a selected_type* count, ScanTileState<offset> and CUB's policy selector.
using algos::build;
}  // namespace unique_by_key

}  // namespace cccl_cache::algos
