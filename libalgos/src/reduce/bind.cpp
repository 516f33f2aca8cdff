// bind(): the core bind plus what reduce's dispatch needs, and the Executable. Fresh
// builds and store hits both come through here.
#include <string>

#include "cccl_cache/algos/reduce/executable.hpp"
#include "core/bind.hpp"
#include "reduce/dispatch.hpp"

namespace cccl_cache::algos::reduce {

struct Executable::State {
  algos::detail::BoundModule bound;
  Spec spec;
  detail::DispatchParams params;
  detail::DispatchFn dispatch = nullptr;
  detail::TempLayout layout;
};

Result<Executable> bind(const BuildResultView& result, int device) {
  const Policy& policy = result.policy;
  if (auto ok = Reduce::check(result.spec, policy, result.record); !ok)
    return fail(ErrorCode::invalid_argument, "bind: " + ok.error().message);
  const detail::DispatchFn dispatch =
      detail::select_dispatch(size_of(result.spec.type), policy.accum_size, result.spec.offset_type);
  if (dispatch == nullptr || policy.accum_align != policy.accum_size)
    return fail(ErrorCode::unsupported, "bind: unsupported reduce (" + summary(result.spec) +
                                            ", accumulator of " +
                                            std::to_string(policy.accum_size) + " bytes)");
  const std::uint32_t block_threads[Reduce::kKernels] = {
      policy.single_tile_threads, policy.multi_tile_threads, policy.single_tile_threads};
  auto bound = algos::detail::bind_module(result.record, device, block_threads);
  if (!bound) return tl::unexpected(bound.error());
  auto state = std::make_unique<Executable::State>();
  state->bound = std::move(*bound);
  detail::DispatchParams& p = state->params;
  p.launch = &state->bound.launch;
  p.multi_tile_threads = static_cast<int>(policy.multi_tile_threads);
  p.multi_tile_items = static_cast<int>(policy.multi_tile_items);
  p.single_tile_threads = static_cast<int>(policy.single_tile_threads);
  p.single_tile_items = static_cast<int>(policy.single_tile_items);
  state->dispatch = dispatch;
  state->layout = detail::make_layout(policy.accum_size, result.spec.offset_type, p);
  state->spec = result.spec;
  return Executable(std::move(state));
}

Executable::Executable(std::unique_ptr<State> state) : state_(std::move(state)) {}
Executable::Executable(Executable&&) noexcept = default;
Executable& Executable::operator=(Executable&&) noexcept = default;
Executable::~Executable() = default;

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return state_ ? state_->layout.bytes(num_items) : 0;
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_in, void* d_out, std::uint64_t num_items,
                                const void* h_init, CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  const State& s = *state_;
  if (num_items > s.layout.max_items) return CUDA_ERROR_INVALID_VALUE;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = s.layout.bytes(num_items);
    return CUDA_SUCCESS;
  }
  // A fork()ed child holds its parent's handles: CUDA state is not inherited.
  if (!s.bound.in_this_process()) return CUDA_ERROR_NOT_INITIALIZED;
  return s.dispatch(s.params, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, h_init,
                    stream);
}

const Spec& Executable::spec() const noexcept { return state_->spec; }
int Executable::device() const noexcept { return state_->bound.device; }
std::uint32_t Executable::cc() const noexcept { return state_->bound.cc; }

}  // namespace cccl_cache::algos::reduce

namespace cccl_cache::algos {
const std::string& Reduce::dispatch_abi() { return reduce::detail::dispatch_abi_description(); }
Result<reduce::Executable> Reduce::bind(const BuiltView<Reduce>& built, int device) {
  return reduce::bind(built, device);
}
}  // namespace cccl_cache::algos
