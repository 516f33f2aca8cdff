// select's build result: the generic record (core/built.hpp) with its kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <string>

#include "cccl_cache/algos/core/agent_select.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/select/spec.hpp"

namespace cccl_cache::algos::select {

// Policy (threads, items, vsmem_per_block), Kernel (init_kernel, sweep_kernel) and
// kInitBlockThreads of CUB's agent-select kernels (core/agent_select.hpp).
using namespace agent_select;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::select

namespace cccl_cache::algos {

// select's traits for the core (core/built.hpp, AlgorithmCache).
struct Select : AgentSelectAlgorithm<Select, select::Spec> {
  using Spec = select::Spec;
  using Executable = select::Executable;
  // A plausible policy, kernel names that name their roles, launch bounds that agree.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // select/dispatch.cu
  static Result<Executable> bind(const BuiltView<Select>& built, int device);
};

namespace select {
using BuildResult = Built<Select>;
using BuildResultView = BuiltView<Select>;
// build(spec, cc) (core/built.hpp): the two kernels DeviceSelect::If launches (CUB's
// DeviceCompactInitKernel and DeviceSelectSweepKernel) for T* input and output, a
// selected_type* count, ScanTileState<int> (CUB's per-partition offset), its streaming
// context over int64 counts and CUB's policy selector.
using algos::build;
}  // namespace select

}  // namespace cccl_cache::algos
