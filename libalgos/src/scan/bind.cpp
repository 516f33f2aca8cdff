// Scan<Id>::bind: the core bind (core/bind.hpp) plus what CUB's scan dispatch needs.
// Fresh builds and store hits both come through here, so nothing after bind can tell
// them apart.
#include "cccl_cache/algos/scan/executable.hpp"
#include "scan/dispatch.hpp"
#include "scan/executable_state.hpp"

namespace cccl_cache::algos {

template <AlgorithmId Id>
Result<scan::Executable<Id>> Scan<Id>::bind(const BuiltView<Scan>& result, int device) {
  using State = typename scan::Executable<Id>::State;
  const Policy& policy = result.policy;
  const scan::detail::DispatchFn dispatch = scan::detail::select_dispatch(
      size_of(result.spec.type), result.spec.offset_type, Spec::kExclusive);
  if (dispatch == nullptr)
    return fail(ErrorCode::unsupported, "bind: unsupported scan types (" + summary(result.spec) + ")");
  if (auto ok = check(result.spec, policy, result.record); !ok)
    return fail(ErrorCode::invalid_argument, "bind: " + ok.error().message);
  scan::detail::DispatchParams p;
  p.algorithm = static_cast<int>(policy.algorithm);
  p.block_threads = static_cast<int>(policy.block_threads);
  p.items_per_thread = static_cast<int>(policy.items_per_thread);
  p.reduce_and_scan_warps = static_cast<int>(policy.reduce_and_scan_warps);
  p.lookahead_items_per_thread = static_cast<int>(policy.lookahead_items_per_thread);
  p.lookahead_stages = static_cast<std::int32_t>(policy.lookahead_stages);
  p.block_idx_stages = static_cast<std::int32_t>(policy.block_idx_stages);
  if (!scan::detail::policy_supported(p))
    return fail(ErrorCode::invalid_argument, "bind: a scan policy CUB's dispatch cannot run");

  const std::uint32_t block_threads[kKernels] = {scan::kInitBlockThreads, policy.block_threads};
  auto bound = algos::detail::bind_module(result.record, device, block_threads);
  if (!bound) return tl::unexpected(bound.error());
  auto state = std::make_unique<State>();
  state->bound = std::move(*bound);
  p.launch = &state->bound.launch;
  state->params = p;
  state->dispatch = dispatch;
  state->spec = result.spec;
  return scan::Executable<Id>(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::scan {

template <AlgorithmId Id>
Executable<Id>::Executable(std::unique_ptr<State> state) : state_(std::move(state)) {}
template <AlgorithmId Id>
Executable<Id>::Executable(Executable&&) noexcept = default;
template <AlgorithmId Id>
Executable<Id>& Executable<Id>::operator=(Executable&&) noexcept = default;
template <AlgorithmId Id>
Executable<Id>::~Executable() = default;

template <AlgorithmId Id>
std::size_t Executable<Id>::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  if (!state_) return 0;
  std::size_t bytes = 0;
  const CUresult rc = state_->dispatch(state_->params, nullptr, bytes, nullptr, nullptr,
                                       num_items, nullptr, nullptr);
  return rc == CUDA_SUCCESS ? bytes : 0;
}

template <AlgorithmId Id>
CUresult Executable<Id>::run(void* d_temp_storage, std::size_t& temp_storage_bytes,
                             const void* d_in, void* d_out, std::uint64_t num_items,
                             const void* h_init, CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  const State& s = *state_;
  // A fork()ed child holds its parent's handles: CUDA state is not inherited.
  if (d_temp_storage != nullptr && !s.bound.in_this_process()) return CUDA_ERROR_NOT_INITIALIZED;
  return s.dispatch(s.params, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, h_init,
                    stream);
}

template <AlgorithmId Id>
const Spec<Id>& Executable<Id>::spec() const noexcept {
  return state_->spec;
}
template <AlgorithmId Id>
int Executable<Id>::device() const noexcept {
  return state_->bound.device;
}
template <AlgorithmId Id>
std::uint32_t Executable<Id>::cc() const noexcept {
  return state_->bound.cc;
}

template class Executable<AlgorithmId::inclusive_scan>;
template class Executable<AlgorithmId::exclusive_scan>;

}  // namespace cccl_cache::algos::scan

namespace cccl_cache::algos {
template Result<scan::InclusiveExecutable> InclusiveScan::bind(const BuiltView<InclusiveScan>&, int);
template Result<scan::ExclusiveExecutable> ExclusiveScan::bind(const BuiltView<ExclusiveScan>&, int);
}  // namespace cccl_cache::algos
