// CCCL 3.5's transform host dispatch (cub::detail::transform::dispatch; its host code
// compiled here by nvcc) driven by the kernel a bind resolved, through the core's
// launcher factory (core/launch.cuh), with the build's policy as a run-time selector.
//
// The device kernel was instantiated by the build (codegen.cpp) as
//   transform_kernel<policy_selector_from_types<false, true, tuple<const In*...>, Out*>,
//                    int64_t, always_true, cccl_cache_op, Out*, const In*...>.
// Its arguments are (int64, int, bool, empty, empty, Out*, kernel_arg<const In*>...);
// the shared pieces are in dispatch.cuh.
#include "core/launch.cuh"

#include <limits>

#include "transform/dispatch.cuh"

namespace cccl_cache::algos::transform::detail {
namespace {

template <int N>
CUresult run_dispatch(const DispatchParams& params, const void* const* d_in, void* d_out,
                      std::uint64_t num_items, CUstream stream, const void* op_state) noexcept {
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err = call<N>(params, nullptr, DriverLauncherFactory{params.launch, &status},
                                  d_in, d_out, static_cast<std::int64_t>(num_items), stream,
                                  algos::detail::OpArg{op_state});
  return algos::detail::dispatch_result(err, status);
}

}  // namespace

DispatchFn dispatch_for(int num_inputs) noexcept {
  return num_inputs == 1 ? &run_dispatch<1> : num_inputs == 2 ? &run_dispatch<2> : nullptr;
}

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

}  // namespace cccl_cache::algos::transform::detail

namespace cccl_cache::algos {

template <int N>
const std::string& Transform<N>::dispatch_abi() {
  using namespace transform::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    describe_dispatch<algos::detail::OpArg>(abi);
  });
}
template const std::string& UnaryTransform::dispatch_abi();
template const std::string& BinaryTransform::dispatch_abi();

}  // namespace cccl_cache::algos
