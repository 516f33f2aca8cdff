// histogram_even's build result: the generic record (core/built.hpp) with its kernels
// and runtime values named. Device-independent; what the store holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/policy_list.hpp"
#include "cccl_cache/algos/histogram_even/spec.hpp"

namespace cccl_cache::algos::histogram_even {

// The HistogramPolicy the sweep kernels were compiled with (CUB's selector for the sample
// and counter types, one channel, even bins, at the target CC), as far as the host
// dispatch reads it: the tile shape, each value with the member of CUB's policy it
// mirrors (core/policy_list.hpp). Read from the kernels' own compile (policy probe).
#define CCCL_CACHE_HISTOGRAM_EVEN_POLICY(X) \
  X(threads, threads_per_block)             \
  X(pixels, pixels_per_thread)

struct Policy {
  CCCL_CACHE_HISTOGRAM_EVEN_POLICY(CCCL_CACHE_POLICY_MEMBER)

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    CCCL_CACHE_HISTOGRAM_EVEN_POLICY(CCCL_CACHE_POLICY_FIELD)
  }
  bool operator==(const Policy&) const = default;
};

// The record's kernels, in this order. CUB's sweep kernel keeps per-block bins in shared
// memory for up to 256 bins (and always for 1-byte samples, whose 256 values it bins
// first), else in global memory (temp storage): one kernel for each, as
// DispatchHistogram picks at run time from the call's number of levels.
enum Kernel : std::size_t { init_kernel = 0, sweep_shared_kernel = 1, sweep_global_kernel = 2 };

// CUB launches the init kernel (zeroes the output bins, resets the tile queue) with this
// many threads per block; its shared-memory path privatizes at most this many bins.
inline constexpr std::uint32_t kInitBlockThreads = 256;
inline constexpr int kMaxPrivatizedBins = 256;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::histogram_even

namespace cccl_cache::algos {

// histogram_even's traits for the core (core/built.hpp, AlgorithmCache).
struct HistogramEven : AlgorithmBase<HistogramEven, histogram_even::Spec> {
  using Spec = histogram_even::Spec;
  using Policy = histogram_even::Policy;
  using Executable = histogram_even::Executable;
  static constexpr std::size_t kKernels = 3;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"init", "sweep_shared",
                                                                          "sweep_global"};
  // A plausible policy, kernel names that name their roles, launch bounds that agree.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // histogram_even/dispatch.cu
  static Result<Executable> bind(const BuiltView<HistogramEven>& built, int device);
};

namespace histogram_even {
using BuildResult = Built<HistogramEven>;
using BuildResultView = BuiltView<HistogramEven>;
// build(spec, cc) (core/built.hpp): the three kernels DeviceHistogram::HistogramEven
// launches (CUB's DeviceHistogramInitKernel and DeviceHistogramSweepDeviceInitKernel with
// shared and global bins) for const T* samples, the counter type, level arrays of one
// bound and CUB's policy selector.
using algos::build;
}  // namespace histogram_even

}  // namespace cccl_cache::algos
