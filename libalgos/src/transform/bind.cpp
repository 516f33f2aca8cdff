// bind(): the core bind (core/bind.hpp), then CUB's launch configuration computed once
// (transform/dispatch.hpp configure). Fresh builds and store hits both come through here.
#include <string>

#include "cccl_cache/algos/transform/executable.hpp"
#include "core/bind.hpp"
#include "cuda_driver.hpp"
#include "transform/dispatch.hpp"

namespace cccl_cache::algos::transform {

template <int N>
struct Executable<N>::State {
  algos::detail::BoundModule bound;
  Spec<N> spec;
  detail::DispatchParams params;
  detail::DispatchFn dispatch = nullptr;
};

namespace {
CUresult occupancy(int* blocks, CUfunction fn, int block_threads, std::size_t dynamic_smem) {
  return algos::detail::loaded_driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks, fn, block_threads, dynamic_smem);
}
}  // namespace

template <int N>
Result<Executable<N>> bind(const BuildResultView<N>& result, int device) {
  if (auto ok = Transform<N>::check(result.spec, result.policy, result.record); !ok)
    return fail(ErrorCode::invalid_argument, "bind: " + ok.error().message);
  const std::uint32_t block_threads[1] = {result.policy.block_threads};
  CCCL_CACHE_TRY(auto bound, algos::detail::bind_module(result.record, device, block_threads));
  auto state = std::make_unique<typename Executable<N>::State>();
  state->bound = std::move(bound);
  state->spec = result.spec;
  state->dispatch = detail::dispatch_for(N);
  detail::DispatchParams& p = state->params;
  p.launch = &state->bound.launch;
  p.policy = result.policy;
  p.num_inputs = N;
  for (int i = 0; i < N; ++i) p.in_size[i] = static_cast<int>(size_of(result.spec.in[i]));
  p.out_size = static_cast<int>(size_of(result.spec.out));
  CCCL_CACHE_TRY(auto current, algos::detail::ScopedCurrentContext::push(state->bound.context.get()));
  if (CUresult rc = detail::configure(p, &occupancy); rc != CUDA_SUCCESS)
    return tl::unexpected(algos::detail::driver_error("bind: CUB's transform launch configuration", rc));
  return Executable<N>(std::move(state));
}

template <int N>
Executable<N>::Executable(std::unique_ptr<State> state) : state_(std::move(state)) {}
template <int N>
Executable<N>::Executable(Executable&&) noexcept = default;
template <int N>
Executable<N>& Executable<N>::operator=(Executable&&) noexcept = default;
template <int N>
Executable<N>::~Executable() = default;

template <int N>
CUresult Executable<N>::run(const void* const* d_in, void* d_out, std::uint64_t num_items,
                            CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  // A fork()ed child holds its parent's handles: CUDA state is not inherited.
  if (!state_->bound.in_this_process()) return CUDA_ERROR_NOT_INITIALIZED;
  return state_->dispatch(state_->params, d_in, d_out, num_items, stream);
}
template <int N>
CUresult Executable<N>::operator()(const void* d_in, void* d_out, std::uint64_t num_items,
                                   CUstream stream) const noexcept
  requires(N == 1)
{
  const void* ins[1] = {d_in};
  return run(ins, d_out, num_items, stream);
}
template <int N>
CUresult Executable<N>::operator()(const void* d_in1, const void* d_in2, void* d_out,
                                   std::uint64_t num_items, CUstream stream) const noexcept
  requires(N == 2)
{
  const void* ins[2] = {d_in1, d_in2};
  return run(ins, d_out, num_items, stream);
}
template <int N>
const Spec<N>& Executable<N>::spec() const noexcept { return state_->spec; }
template <int N>
int Executable<N>::device() const noexcept { return state_->bound.device; }
template <int N>
std::uint32_t Executable<N>::cc() const noexcept { return state_->bound.cc; }

template class Executable<1>;
template class Executable<2>;
template Result<Executable<1>> bind(const BuildResultView<1>&, int);
template Result<Executable<2>> bind(const BuildResultView<2>&, int);

}  // namespace cccl_cache::algos::transform

namespace cccl_cache::algos {
template <int N>
const std::string& Transform<N>::dispatch_abi() {
  return transform::detail::dispatch_abi_description();
}
template <int N>
Result<transform::Executable<N>> Transform<N>::bind(const BuiltView<Transform<N>>& built, int device) {
  return transform::bind<N>(built, device);
}
template const std::string& Transform<1>::dispatch_abi();
template const std::string& Transform<2>::dispatch_abi();
template Result<transform::Executable<1>> Transform<1>::bind(const BuiltView<Transform<1>>&, int);
template Result<transform::Executable<2>> Transform<2>::bind(const BuiltView<Transform<2>>&, int);
}  // namespace cccl_cache::algos
