// Transform<N>::bind: the core bind (core/executable_state.hpp), then the transform
// kernel's dispatch values and CUB's launch configuration (core/transform_bind.hpp), and
// the Executable's call. Fresh builds and store hits both come through here.
#include <string>

#include "cccl_cache/algos/transform/executable.hpp"
#include "core/iterator.hpp"
#include "core/transform_bind.hpp"
#include "transform/dispatch.hpp"

namespace cccl_cache::algos {

template <int N>
struct detail::ExecutableState<Transform<N>>
    : BoundState<Transform<N>, transform::detail::DispatchParams, transform::detail::DispatchFn> {};
template class BoundExecutable<UnaryTransform>;
template class BoundExecutable<BinaryTransform>;

template <int N>
Result<transform::Executable<N>> Transform<N>::bind(const BuiltView<Transform>& result,
                                                    int device) {
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[1] = {result.policy.block_threads};
  bool iterators[N];
  for (int k = 0; k < N; ++k) iterators[k] = result.spec.input_iterator(k);
  CCCL_CACHE_TRY(auto state,
                 detail::bind_state(result, device, block_threads,
                                    transform::detail::dispatch_for(
                                        N, iterators, !result.spec.output.is_pointer())));
  CCCL_CACHE_CHECK(transform_kernel::detail::bind_params(*state, result.policy, result.spec.in, result.spec.out));
  return Executable(std::move(state));
}
template Result<transform::Executable<1>> UnaryTransform::bind(const BuiltView<UnaryTransform>&, int);
template Result<transform::Executable<2>> BinaryTransform::bind(const BuiltView<BinaryTransform>&, int);

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::transform {

template <int N>
CUresult Executable<N>::run(const Input* d_in, const Output& d_out, std::uint64_t num_items,
                            CUstream stream, OpState op_state) const noexcept {
  if (CUresult rc = this->usable(false); rc != CUDA_SUCCESS) return rc;  // moved from
  const Spec<N>& s = this->spec();
  // Arrays as they are; iterators' values packed here (core/iterator.hpp).
  algos::detail::IteratorArg packed[N + 1];
  const void* ins[N];
  const void* out = nullptr;
  for (int k = 0; k < N; ++k)
    if (!algos::detail::iterator_address(s.inputs[k], s.in[k].scalar, d_in[k].value, num_items, packed[k],
                                         ins[k]))
      return CUDA_ERROR_INVALID_VALUE;
  if (!algos::detail::iterator_address(s.output, s.out.scalar, d_out.value, num_items, packed[N], out))
    return CUDA_ERROR_INVALID_VALUE;
  return this->call_op(&Spec<N>::op, op_state, true, ins, const_cast<void*>(out), num_items,
                       stream);
}
template <int N>
CUresult Executable<N>::operator()(Input d_in, Output d_out, std::uint64_t num_items,
                                   CUstream stream, OpState op_state) const noexcept
    requires(N == 1) {
  return run(&d_in, d_out, num_items, stream, op_state);
}
template <int N>
CUresult Executable<N>::operator()(Input d_in1, Input d_in2, Output d_out, std::uint64_t num_items,
                                   CUstream stream, OpState op_state) const noexcept
    requires(N == 2) {
  const Input ins[2] = {d_in1, d_in2};
  return run(ins, d_out, num_items, stream, op_state);
}

template class Executable<1>;
template class Executable<2>;

}  // namespace cccl_cache::algos::transform
