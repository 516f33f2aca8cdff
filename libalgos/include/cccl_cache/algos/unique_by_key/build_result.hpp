// unique_by_key's build result: the generic record (core/built.hpp) with its kernels
// and runtime values named. Device-independent; what the store holds.
#pragma once

#include <string>

#include "cccl_cache/algos/core/agent_select.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"

namespace cccl_cache::algos::unique_by_key {

// Policy (threads, items, vsmem_per_block), Kernel (init_kernel, sweep_kernel) and
// kInitBlockThreads of CUB's agent-select kernels (core/agent_select.hpp).
using namespace agent_select;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::unique_by_key

namespace cccl_cache::algos {

// unique_by_key's traits for the core (core/built.hpp, AlgorithmCache).
struct UniqueByKey : AgentSelectAlgorithm<UniqueByKey, unique_by_key::Spec> {
  using Spec = unique_by_key::Spec;
  using Executable = unique_by_key::Executable;
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
