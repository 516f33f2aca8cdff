// CCCL 3.5's transform host dispatch (cub::detail::transform::dispatch; its host code
// compiled by nvcc) driven by the kernel a bind resolved, through the core's launcher
// factory (core/launch.cuh), with the build's policy as a run-time selector: the pieces
// every algorithm on the transform kernel (transform, binary search) dispatches with.
// Private to libalgos; include after core/launch.cuh.
//
// A pointer and kernel_arg<const T*> (a union of a pointer and {const char*, int}) have
// one layout for every T, so the dispatch is instantiated once per input count over
// byte pointers, and the element sizes it needs (vectorization alignment, shared memory
// per tile, bytes in flight) come from DispatchParams through the kernel source.
#pragma once

#include <cub/device/dispatch/dispatch_transform.cuh>

#include <cstdint>
#include <type_traits>

#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"
#include "core/transform_dispatch.hpp"

namespace cccl_cache::algos::transform_kernel::detail {

namespace ct = cub::detail::transform;
using algos::detail::DriverLauncherFactory;
using algos::detail::IterArg;
using algos::detail::OpArg;
// An array argument's stand-in; an iterator's is IterArg (its packed bytes).
using In = const unsigned char*;
using Out = unsigned char*;

// The build's policy, as CUB's selector would return it for the bound CC: every value
// the host dispatch reads; the rest (unroll factors, prefetch stride, store width) keeps
// CUB's defaults, as in the policy's sub-policies built from their block size alone.
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::TransformPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = params->policy;
    cub::TransformPolicy r{};
    r.algorithm = static_cast<cub::TransformAlgorithm>(p.algorithm);
    const auto& v = algos::detail::policy_to_cub;
    CCCL_CACHE_TRANSFORM_POLICY(CCCL_CACHE_POLICY_MIRROR)
    return r;
  }
};

inline ct::async_config to_cub(const LaunchConfig& c, ct::async_config*) {
  return {c.items_per_thread, c.max_occupancy, c.sm_count};
}
inline ct::prefetch_config to_cub(const LaunchConfig& c, ct::prefetch_config*) {
  return {c.max_occupancy, c.sm_count};
}
inline LaunchConfig from_cub(const ct::async_config& c) {
  return {true, c.items_per_thread, c.max_occupancy, c.sm_count};
}
inline LaunchConfig from_cub(const ct::prefetch_config& c) { return {true, 0, c.max_occupancy, c.sm_count}; }

// CUB's kernel source interface for the bound kernel. A call answers the launch
// configuration from the one fixed at bind; configure() runs CUB's own computation of
// it (the action) and records it.
template <int N>
struct BoundKernel {
  const DispatchParams* params;
  DispatchParams* record = nullptr;  // configure() only

  CUfunction TransformKernel() const { return params->launch->kernels[0].function; }

  template <class Config, class Action>
  ct::cuda_expected<Config> cached(const LaunchConfig& fixed, LaunchConfig* out,
                                   const Action& action) const {
    if (out == nullptr) {
      if (!fixed.set) return ::cuda::std::unexpected<cudaError_t>(cudaErrorInvalidValue);
      return to_cub(fixed, static_cast<Config*>(nullptr));
    }
    ct::cuda_expected<Config> computed = action();
    if (computed) *out = from_cub(*computed);
    return computed;
  }
  template <class Action>
  ct::cuda_expected<ct::async_config> CacheAsyncConfiguration(const Action& action) const {
    return cached<ct::async_config>(params->async_config, record ? &record->async_config : nullptr,
                                    action);
  }
  template <class Action>
  ct::cuda_expected<ct::prefetch_config> CachePrefetchConfiguration(const Action& action) const {
    return cached<ct::prefetch_config>(params->prefetch_config,
                                       record ? &record->prefetch_config : nullptr, action);
  }

  int LoadedBytesPerIteration() const { return params->in_size[0] + (N == 2 ? params->in_size[1] : 0); }
  ::cuda::std::array<cub::detail::iterator_info, N> InputIteratorInfos() const {
    ::cuda::std::array<cub::detail::iterator_info, N> infos{};
    for (int i = 0; i < N; ++i) infos[i] = {params->in_size[i], params->in_align[i], true, true};
    return infos;
  }
  // An array's kernel_arg as CUB makes it; an iterator's packed bytes as they are: the
  // kernel's kernel_arg<It> is a union starting with the iterator (the driver copies its
  // size from the packed bytes, which are at least as large).
  template <class It>
  static auto MakeIteratorKernelArg(It it) {
    if constexpr (std::is_same_v<It, IterArg>)
      return it;
    else
      return ct::make_iterator_kernel_arg(it);
  }
  // The async algorithms' (ldgsts, ublkcp): CUB chooses them for array inputs only.
  template <class It>
  static auto MakeAlignedBasePtrKernelArg(It it, int alignment) {
    if constexpr (std::is_same_v<It, IterArg>)
      return it;
    else
      return ct::make_aligned_base_ptr_kernel_arg(it, alignment);
  }
  // As CUB's own kernel source: arrays aligned to the vector width; an iterator counts
  // as aligned (the vectorized kernel reads and writes it element by element).
  template <class O, class... Ins>
  bool CanVectorize(int vec_size, O out, Ins... in) const {
    auto aligned = [&](auto p, int size) {
      if constexpr (std::is_same_v<decltype(p), IterArg>)
        return true;
      else
        return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(size * vec_size) ==
               0;
    };
    int i = 0;
    return aligned(out, params->out_size) && (aligned(in, params->in_size[i++]) && ...);
  }
};

// CUB's transform dispatch of `op` (a host stand-in of the kernel's operator: its
// layout; OpArg: the generated operator struct, stateless or stateful) over the bound
// kernel; `record` (configure() only) receives the launch configuration CUB computes.
// OutT and InT: each argument's stand-in, an array (Out, In) or IterArg (`d_out`,
// `d_in[k]` then the addresses of the iterators' packed bytes).
template <int N, class Op = OpArg, class OutT = Out, class In0 = In, class In1 = In>
cudaError_t call(const DispatchParams& params, DispatchParams* record,
                 DriverLauncherFactory factory, const void* const* d_in, void* d_out,
                 std::int64_t num_items, CUstream stream, Op op = {}) {
  using algos::detail::iterator_arg;
  auto ins = [&] {
    if constexpr (N == 1)
      return ::cuda::std::make_tuple(iterator_arg<In0, const unsigned char>(d_in[0]));
    else
      return ::cuda::std::make_tuple(iterator_arg<In0, const unsigned char>(d_in[0]),
                                     iterator_arg<In1, const unsigned char>(d_in[1]));
  }();
  return ct::dispatch<ct::requires_stable_address::no>(
      ins, iterator_arg<OutT, unsigned char>(d_out), num_items, ::cuda::always_true{}, op, stream,
      RuntimePolicySelector{&params}, BoundKernel<N>{&params, record}, factory);
}

// The dispatch-ABI text of DispatchParams and the kernel's argument types, `Op` the
// operator's stand-in (core/abi_text.cuh describe_abi).
template <class Op>
void describe_dispatch(algos::detail::AbiText& abi) {
  CCCL_CACHE_ABI_FIELD(abi, DispatchParams, policy);
  CCCL_CACHE_ABI_FIELD(abi, DispatchParams, num_inputs);
  CCCL_CACHE_ABI_FIELD(abi, DispatchParams, in_size);
  CCCL_CACHE_ABI_FIELD(abi, DispatchParams, in_align);
  CCCL_CACHE_ABI_FIELD(abi, DispatchParams, out_size);
  CCCL_CACHE_ABI_FIELD(abi, DispatchParams, async_config);
  CCCL_CACHE_ABI_FIELD(abi, DispatchParams, prefetch_config);
  // The kernel's argument types (their order is CUB's, covered by cub=).
  abi.type<::cuda::always_true>("pred");
  abi.template type<Op>("op");
  abi.type<Out>("out");
  abi.type<ct::kernel_arg<In>>("arg").type<ct::aligned_base_ptr<unsigned char>>("aligned");
}

}  // namespace cccl_cache::algos::transform_kernel::detail
