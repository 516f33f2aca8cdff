// CCCL 3.5's transform host dispatch (cub::detail::transform::dispatch; its host code
// compiled here by nvcc) driven by the kernel a bind resolved, through the core's
// launcher factory (core/launch.cuh), with the build's policy as a run-time selector.
//
// The device kernel was instantiated by the build (codegen.cpp) as
//   transform_kernel<policy_selector_from_types<false, true, tuple<const In*...>, Out*>,
//                    int64_t, always_true, cccl_cache_op, Out*, const In*...>,
// with the spec's iterators in place of arrays. Its arguments are (int64, int, bool,
// empty, empty, Out*, kernel_arg<const In*>...); the dispatch pieces are the core's
// (core/transform_dispatch.cuh). One instantiation per combination of arrays and
// iterators, so arrays keep CUB's own vectorized and bulk-copy paths.
#include "core/launch.cuh"
#include "core/abi_text.cuh"

#include <limits>

#include "core/transform_dispatch.cuh"
#include "transform/dispatch.hpp"

namespace cccl_cache::algos::transform::detail {
namespace {

using transform_kernel::detail::In;
using transform_kernel::detail::IterArg;
using transform_kernel::detail::Out;

// OutT, In0, In1: each argument an array (Out, In) or an iterator (IterArg).
template <int N, class OutT, class In0, class In1>
CUresult run_dispatch(const DispatchParams& params, const void* const* d_in, void* d_out,
                      std::uint64_t num_items, CUstream stream, const void* op_state) noexcept {
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err = transform_kernel::detail::call<N, algos::detail::OpArg, OutT, In0, In1>(
      params, nullptr, algos::detail::DriverLauncherFactory{params.launch, &status}, d_in, d_out,
      static_cast<std::int64_t>(num_items), stream, algos::detail::OpArg{op_state});
  return algos::detail::dispatch_result(err, status);
}

template <class OutT>
DispatchFn with_output(int num_inputs, const bool* iterators) noexcept {
  if (num_inputs == 1)
    return iterators[0] ? &run_dispatch<1, OutT, IterArg, In> : &run_dispatch<1, OutT, In, In>;
  if (num_inputs != 2) return nullptr;
  if (iterators[0])
    return iterators[1] ? &run_dispatch<2, OutT, IterArg, IterArg>
                        : &run_dispatch<2, OutT, IterArg, In>;
  return iterators[1] ? &run_dispatch<2, OutT, In, IterArg> : &run_dispatch<2, OutT, In, In>;
}

}  // namespace

DispatchFn dispatch_for(int num_inputs, const bool* input_iterators,
                        bool output_iterator) noexcept {
  return output_iterator ? with_output<IterArg>(num_inputs, input_iterators)
                         : with_output<Out>(num_inputs, input_iterators);
}

}  // namespace cccl_cache::algos::transform::detail

namespace cccl_cache::algos {

template <int N>
const std::string& Transform<N>::dispatch_abi() {
  using namespace transform::detail;  // its DispatchParams
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    transform_kernel::detail::describe_dispatch<algos::detail::OpArg>(abi);
  });
}
template const std::string& UnaryTransform::dispatch_abi();
template const std::string& BinaryTransform::dispatch_abi();

}  // namespace cccl_cache::algos
