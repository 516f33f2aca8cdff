// unique_by_key's build result: the generic record (core/built.hpp) with its kernels
// and runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/agent_select.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"

namespace cccl_cache::algos::unique_by_key {

// The policy (threads, items, vsmem_per_block), kernel order and init block of CUB's
// agent-select kernels (core/agent_select.hpp).
using agent_select::Policy;
using agent_select::Kernel;
using enum agent_select::Kernel;
using agent_select::kInitBlockThreads;

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
