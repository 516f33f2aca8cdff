// Reduce's build result: the generic record (core/built.hpp) with its kernels and
// runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"

namespace cccl_cache::algos::reduce {

// The values CUB's host dispatch needs, read from the kernels' own compile for the
// target CC (CUB's default policy selector for DeviceReduce::Reduce), and the size of
// the accumulator CUB derived for the operator.
struct Policy {
  std::uint32_t multi_tile_threads = 0;  // DeviceReduceKernel's block
  std::uint32_t multi_tile_items = 0;    // items per thread
  std::uint32_t single_tile_threads = 0;
  std::uint32_t single_tile_items = 0;
  std::uint32_t accum_size = 0;  // sizeof(AccumT)
  std::uint32_t accum_align = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("multi_tile_threads", p.multi_tile_threads);
    v("multi_tile_items", p.multi_tile_items);
    v("single_tile_threads", p.single_tile_threads);
    v("single_tile_items", p.single_tile_items);
    v("accum_size", p.accum_size);
    v("accum_align", p.accum_align);
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order: the whole problem in one block; the first
// pass (one partial per block); the second pass over the partials.
enum Kernel : std::size_t { single_tile_kernel = 0, reduce_kernel = 1, second_pass_kernel = 2 };

}  // namespace cccl_cache::algos::reduce

namespace cccl_cache::algos {

namespace reduce {
class Executable;  // executable.hpp
}

// Reduce's traits for the core (core/built.hpp, AlgorithmCache).
struct Reduce : AlgorithmBase<Reduce, reduce::Spec> {
  using Spec = reduce::Spec;
  using Policy = reduce::Policy;
  using Executable = reduce::Executable;
  static constexpr std::size_t kKernels = 3;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"single_tile", "reduce",
                                                                          "second_pass"};
  // A plausible policy, and kernel names and launch bounds that agree with it.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // reduce/dispatch.cu
  static Result<Executable> bind(const BuiltView<Reduce>& built, int device);
};

namespace reduce {
using BuildResult = Built<Reduce>;
using BuildResultView = BuiltView<Reduce>;
// build(spec, cc) (core/built.hpp): CUB's three reduce kernels (DeviceReduce::Reduce's,
// default policy selector); unsupported also for an accumulator not of 1, 2, 4 or 8 bytes.
using algos::build;
}  // namespace reduce

}  // namespace cccl_cache::algos
