// Transform<N>::bind: the core bind (core/executable_state.hpp), then the transform
// kernel's dispatch values and CUB's launch configuration (core/transform_bind.hpp), and
// the Executable's call. Fresh builds and store hits both come through here.
#include <string>

#include "cccl_cache/algos/transform/executable.hpp"
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
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads,
                                                transform::detail::dispatch_for(N)));
  CCCL_CACHE_CHECK(transform_kernel::detail::bind_params(*state, result.policy, result.spec.in, result.spec.out));
  return Executable(std::move(state));
}
template Result<transform::Executable<1>> UnaryTransform::bind(const BuiltView<UnaryTransform>&, int);
template Result<transform::Executable<2>> BinaryTransform::bind(const BuiltView<BinaryTransform>&, int);

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::transform {

template <int N>
CUresult Executable<N>::run(const void* const* d_in, void* d_out, std::uint64_t num_items,
                            CUstream stream, OpState op_state) const noexcept {
  return this->call_op(&Spec<N>::op, op_state, true, d_in, d_out, num_items, stream);
}
template <int N>
CUresult Executable<N>::operator()(const void* d_in, void* d_out, std::uint64_t num_items,
                                   CUstream stream, OpState op_state) const noexcept
  requires(N == 1)
{
  const void* ins[1] = {d_in};
  return run(ins, d_out, num_items, stream, op_state);
}
template <int N>
CUresult Executable<N>::operator()(const void* d_in1, const void* d_in2, void* d_out,
                                   std::uint64_t num_items, CUstream stream,
                                   OpState op_state) const noexcept
  requires(N == 2)
{
  const void* ins[2] = {d_in1, d_in2};
  return run(ins, d_out, num_items, stream, op_state);
}

template class Executable<1>;
template class Executable<2>;

}  // namespace cccl_cache::algos::transform
