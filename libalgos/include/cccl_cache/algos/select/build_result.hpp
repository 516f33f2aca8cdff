// select's build result: the generic record (core/built.hpp) with its kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/agent_select.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/select/spec.hpp"

namespace cccl_cache::algos::select {

// The policy (threads, items, vsmem_per_block), kernel order and init block of CUB's
// agent-select kernels (core/agent_select.hpp).
using agent_select::Policy;
using agent_select::Kernel;
using enum agent_select::Kernel;
using agent_select::kInitBlockThreads;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::select

namespace cccl_cache::algos {

// select's traits for the core (core/built.hpp, AlgorithmCache).
struct Select : AlgorithmBase<Select, select::Spec> {
  using Spec = select::Spec;
  using Policy = select::Policy;
  using Executable = select::Executable;
  static constexpr std::size_t kKernels = 2;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"init", "sweep"};
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
