// for_each's build result: the generic record (core/built.hpp) with its kernel and runtime
// values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/for_each/spec.hpp"

namespace cccl_cache::algos::for_each {

// CUB's ForPolicy for the target CC, read from the kernel's own compile (the policy
// probe): the block size it is launched with (its launch bounds) and the items each
// thread takes.
struct Policy {
  std::uint32_t block_threads = 0;
  std::uint32_t items_per_thread = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("block_threads", p.block_threads);
    v("items_per_thread", p.items_per_thread);
  }
  bool operator==(const Policy&) const = default;
};

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::for_each

namespace cccl_cache::algos {

// for_each's traits for the core (core/built.hpp, AlgorithmCache).
struct ForEach : AlgorithmBase<ForEach, for_each::Spec> {
  using Spec = for_each::Spec;
  using Policy = for_each::Policy;
  using Executable = for_each::Executable;
  static constexpr std::size_t kKernels = 1;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"for_each"};
  // A plausible policy, a kernel name that names CUB's for-each kernel, launch bounds
  // that agree with the block size launched.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // for_each/dispatch.cu
  static Result<Executable> bind(const BuiltView<ForEach>& built, int device);
};

namespace for_each {
using BuildResult = Built<ForEach>;
using BuildResultView = BuiltView<ForEach>;
// build(spec, cc) (core/built.hpp): CUB's for-each kernel (static_kernel) over
// DeviceFor's operator wrapper {items, op} for the spec's offset type.
using algos::build;
}  // namespace for_each

}  // namespace cccl_cache::algos
