// Segmented reduce's build result: the generic record (core/built.hpp) with its kernel
// and runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"

namespace cccl_cache::algos::segmented_reduce {

// The values CUB's host dispatch needs, read from the kernel's own compile for the
// target CC (CUB's policy selector for DeviceSegmentedReduce, over CUB's accumulator):
// the block's shape (one segment per block), and the warp shapes of the small and
// medium paths a caller's max_segment_size guarantee selects (segments per block =
// threads / warp threads; CUB gives all three paths the block's thread count).
struct Policy {
  std::uint32_t threads = 0;  // the kernel's block (its __launch_bounds__)
  std::uint32_t items = 0;    // items per thread, one segment per block
  std::uint32_t medium_warp_threads = 0;
  std::uint32_t medium_items = 0;
  std::uint32_t small_warp_threads = 0;
  std::uint32_t small_items = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("threads", p.threads);
    v("items", p.items);
    v("medium_warp_threads", p.medium_warp_threads);
    v("medium_items", p.medium_items);
    v("small_warp_threads", p.small_warp_threads);
    v("small_items", p.small_items);
  }
  bool operator==(const Policy&) const = default;
};

// The record's one kernel.
enum Kernel : std::size_t { segmented_reduce_kernel = 0 };

}  // namespace cccl_cache::algos::segmented_reduce

namespace cccl_cache::algos {

namespace segmented_reduce {
class Executable;  // executable.hpp
}

// Segmented reduce's traits for the core (core/built.hpp, AlgorithmCache).
struct SegmentedReduce : AlgorithmBase<SegmentedReduce, segmented_reduce::Spec> {
  using Spec = segmented_reduce::Spec;
  using Policy = segmented_reduce::Policy;
  using Executable = segmented_reduce::Executable;
  static constexpr std::size_t kKernels = 1;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"segmented_reduce"};
  // A plausible policy, and a kernel name and launch bounds that agree with it.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // segmented_reduce/dispatch.cu
  static Result<Executable> bind(const BuiltView<SegmentedReduce>& built, int device);
};

namespace segmented_reduce {
using BuildResult = Built<SegmentedReduce>;
using BuildResultView = BuiltView<SegmentedReduce>;
// build(spec, cc) (core/built.hpp): CUB's DeviceSegmentedReduceKernel as
// DeviceSegmentedReduce::Reduce instantiates it (T* input and output, offset* begin and
// end offsets, CUB's policy selector and accumulator).
using algos::build;
}  // namespace segmented_reduce

}  // namespace cccl_cache::algos
