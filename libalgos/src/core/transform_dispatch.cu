// CUB's launch configuration of the transform kernel, computed at bind by CUB's own
// transform dispatch (core/transform_dispatch.cuh) in a dry run over the bound kernel.
#include "core/launch.cuh"

#include <cstdint>

#include "core/transform_dispatch.cuh"

namespace cccl_cache::algos::transform_kernel::detail {

CUresult configure(DispatchParams& params, const algos::detail::LaunchContext& dry) noexcept {
  // The same kernel and facts, with no launch function: the dispatch stops at the launch.
  DispatchParams probe = params;
  probe.launch = &dry;
  CUresult status = CUDA_SUCCESS;
  const DriverLauncherFactory factory{&dry, &status};
  // Addresses aligned for any vector width: CUB's vectorized path, which still computes
  // the prefetch configuration first.
  const void* ins[2] = {reinterpret_cast<const void*>(std::uintptr_t{1} << 40),
                        reinterpret_cast<const void*>(std::uintptr_t{2} << 40)};
  void* out = reinterpret_cast<void*>(std::uintptr_t{3} << 40);
  if (params.num_inputs == 1)
    call<1>(probe, &params, factory, ins, out, 1, nullptr);
  else if (params.num_inputs == 2)
    call<2>(probe, &params, factory, ins, out, 1, nullptr);
  const bool async = params.policy.algorithm == ldgsts || params.policy.algorithm == ublkcp;
  return (async ? params.async_config : params.prefetch_config).set ? CUDA_SUCCESS
                                                                    : CUDA_ERROR_INVALID_VALUE;
}

}  // namespace cccl_cache::algos::transform_kernel::detail
