// What the algorithms built on CUB's "agent select if" kernels share (DeviceSelect::If,
// DeviceSelect::UniqueByKey): two kernels, the tile-state init kernel and a sweep kernel,
// and the sweep's tile shape read from its own compile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"

namespace cccl_cache::algos::agent_select {

// The values CUB's host dispatch needs, read from the sweep kernel's own compile for the
// target CC (CUB's policy selector over the element types, after its
// virtual-shared-memory fallback): the tile shape, and the virtual shared memory a block
// would need (always 0 for the supported 1..8-byte types; a build needing some is
// refused: with run-time policies no dispatch of ours allocates any).
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

}  // namespace cccl_cache::algos::agent_select

namespace cccl_cache::algos {

// The traits both agent-select algorithms share (core/built.hpp's list): their policy and
// two kernels. Each derives its traits from it and adds Spec, Executable, check,
// dispatch_abi and bind.
template <class A, class SpecT>
struct AgentSelectAlgorithm : AlgorithmBase<A, SpecT> {
  using Policy = agent_select::Policy;
  static constexpr std::size_t kKernels = 2;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"init", "sweep"};
};

}  // namespace cccl_cache::algos
