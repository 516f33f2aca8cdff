// CCCL 3.5's HistogramEven host dispatch with device-side bin operators
// (cub::detail::histogram::__dispatch_even_device_init, one channel: what
// DeviceHistogram::HistogramEven runs with its bin operators built in the kernel; its
// host code compiled here by nvcc) driven by the kernels a bind resolved, through the
// core's launcher factory, with the build's policy values as a run-time policy selector.
//
// The device kernels were instantiated by the build (codegen.cpp) with const T* samples,
// C* bins and arrays of one level; stand-ins of their size and alignment give the
// launches the same argument layout: the samples' type matters here only as CUB's
// byte-sample path or not, the levels' as their size, and their arithmetic (the overflow
// check) is the bind's host function. The samples may be an iterator in place of the
// array (the build names it): one instantiation each.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_histogram.cuh>

#include <cstring>
#include <limits>

#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "core/temp_storage.hpp"
#include "histogram_even/dispatch.hpp"

namespace cccl_cache::algos::histogram_even::detail {
namespace {

namespace hist = cub::detail::histogram;
using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
// The samples' and bins' pointers: the dispatch passes them to the kernels, never reads
// through them (bins are sized by the kernel source's CounterSize).
using SamplePtr = const unsigned char*;
using CounterT = unsigned char;
using QueueT = cub::GridQueue<int>;

// The build chose the policy for the target CC: the host dispatch reads the tile shape;
// the rest is the device code's own.
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::HistogramPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    cub::HistogramPolicy r{};
    const auto& v = algos::detail::policy_to_cub;
    CCCL_CACHE_HISTOGRAM_EVEN_POLICY(CCCL_CACHE_POLICY_MIRROR)
    return r;
  }
};

// CUB's DeviceHistogramKernelSource over the bound kernels: the sweep kernel with
// privatized shared-memory bins (PrivatizedSmemBins 256) or global ones (0).
struct BoundKernels {
  const DispatchParams* params;
  template <class>
  CUfunction HistogramInitKernel() const {
    return params->launch->kernels[init_kernel].function;
  }
  template <class, int PrivatizedSmemBins, class, class, bool, bool>
  CUfunction HistogramSweepKernelDeviceInit() const {
    return params->launch
        ->kernels[PrivatizedSmemBins == 0 ? sweep_global_kernel : sweep_shared_kernel]
        .function;
  }
  std::size_t CounterSize() const { return params->counter_size; }
  template <class NumBinsT, class UpperT, class LowerT>
  bool MayOverflow(NumBinsT num_bins, const UpperT& upper, const LowerT& lower, int channel) const {
    return params->may_overflow(static_cast<int>(num_bins), &upper[channel], &lower[channel]);
  }
};

template <class OffsetT>
bool holds(std::uint64_t num_samples) noexcept {
  return num_samples <= static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max());
}

// Samples: the samples' array (SamplePtr) or IterArg (an iterator's packed bytes at
// d_samples), passed to the sweep kernel as it is.
template <class OffsetT, std::size_t L, bool Byte, class Samples>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_samples, void* d_histogram,
                      int num_levels, const void* h_lower, const void* h_upper,
                      std::uint64_t num_samples, CUstream stream) noexcept {
  using LevelT = Bytes<L>;
  if (!holds<OffsetT>(num_samples)) return CUDA_ERROR_INVALID_VALUE;
  ::cuda::std::array<LevelT, 1> lower{}, upper{};
  if (h_lower != nullptr) std::memcpy(&lower[0], h_lower, L);
  if (h_upper != nullptr) std::memcpy(&upper[0], h_upper, L);
  const auto n = static_cast<OffsetT>(num_samples);
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err =
      hist::__dispatch_even_device_init<1, 1, Samples, CounterT, LevelT, OffsetT,
                                        RuntimePolicySelector, unsigned char, BoundKernels,
                                        DriverLauncherFactory>(
          d_temp_storage, temp_storage_bytes,
          algos::detail::iterator_arg<Samples, const unsigned char>(d_samples),
          ::cuda::std::array<CounterT*, 1>{static_cast<CounterT*>(d_histogram)},
          ::cuda::std::array<int, 1>{num_levels}, lower, upper, n, OffsetT{1}, n, stream,
          ::cuda::std::bool_constant<Byte>{}, RuntimePolicySelector{&params}, BoundKernels{&params},
          DriverLauncherFactory{params.launch, &status});
  return algos::detail::dispatch_result(err, status);
}

// The size query in closed form (dispatch.hpp DispatchFn): one row of samples, as many
// sweep blocks as tiles up to the sweep kernel's resident blocks on the device, each
// with its privatized bins (256 for byte samples, else one per output bin), aliased
// with the tile queue's two ints.
template <class OffsetT, std::size_t L, bool Byte>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, void*, int num_levels, const void* h_lower,
                           const void* h_upper, std::uint64_t num_samples, CUstream) noexcept {
  if (!holds<OffsetT>(num_samples)) return CUDA_ERROR_INVALID_VALUE;
  const int bins = num_levels - 1;
  if (h_lower != nullptr && h_upper != nullptr && params.may_overflow(bins, h_upper, h_lower)) {
    temp_storage_bytes = 1;  // CUB's answer with its error
    return CUDA_ERROR_INVALID_VALUE;
  }
  const bool shared = Byte || bins <= hist::max_privatized_smem_bins;
  const auto& sweep = params.launch->kernels[shared ? sweep_shared_kernel : sweep_global_kernel];
  const std::uint64_t resident =
      std::uint64_t(sweep.occupancy) * std::uint64_t(params.launch->sm_count);
  const std::uint64_t tiles =
      algos::detail::ceil_div(num_samples, params.policy.threads * params.policy.pixels);
  const std::uint64_t blocks = tiles < resident ? tiles : resident;
  const std::uint64_t privatized =
      Byte ? hist::max_privatized_smem_bins : static_cast<std::uint64_t>(bins);
  temp_storage_bytes = static_cast<std::size_t>(algos::detail::alias_bytes(
      blocks * privatized * params.counter_size, QueueT::AllocationSize()));
  return CUDA_SUCCESS;
}

}  // namespace

DispatchFn select_dispatch(ScalarType offset_type, std::size_t level_size, bool byte_samples,
                           bool closed_form, bool samples_iterator) noexcept {
  return algos::detail::on_offset(offset_type, [&](auto o) -> DispatchFn {
    using OffsetT = typename decltype(o)::type;
    if constexpr (!std::is_signed_v<OffsetT>)
      return nullptr;  // the kernels' are int or int64
    else
      return algos::detail::on_size(level_size, [&](auto l) -> DispatchFn {
        constexpr std::size_t kL = decltype(l)::value;
        return algos::detail::on_flag(byte_samples, [&](auto byte) {
          return algos::detail::on_flag(samples_iterator, [&](auto iterator) {
            constexpr bool kByte = decltype(byte)::value;
            using Samples =
                std::conditional_t<decltype(iterator)::value, algos::detail::IterArg, SamplePtr>;
            using Entry = algos::detail::ClosedForm<DispatchFn>;
            return Entry::select<&closed_form_bytes<OffsetT, kL, kByte>,
                                 &run_dispatch<OffsetT, kL, kByte, Samples>>(closed_form);
          });
        });
      });
  });
}

}  // namespace cccl_cache::algos::histogram_even::detail

namespace cccl_cache::algos {

const std::string& HistogramEven::dispatch_abi() {
  using namespace histogram_even::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, counter_size);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<SamplePtr>("samples").type<::cuda::std::array<CounterT*, 1>>("bins");
    abi.type<::cuda::std::array<int, 1>>("counts").type<QueueT>("queue");
    abi.byte_types();
  });
}

}  // namespace cccl_cache::algos
