// bind(): the core bind (core/bind.hpp) plus what merge sort's dispatch needs. Fresh
// builds and store hits both come through here, so nothing after bind can tell them
// apart.
#include <string>

#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "merge_sort/dispatch.hpp"
#include "merge_sort/executable_state.hpp"

namespace cccl_cache::algos::merge_sort {

Result<Executable> bind(const BuildResultView& result, int device) {
  const Policy& policy = result.policy;
  const std::size_t key_size = size_of(result.spec.key_type);
  const std::size_t value_size = size_of(result.spec.value_type);
  const detail::DispatchFn dispatch =
      detail::select_dispatch(key_size, value_size, result.spec.offset_type);
  if (dispatch == nullptr)
    return fail(ErrorCode::unsupported,
                "bind: unsupported merge sort types (" + summary(result.spec) + ")");
  if (auto ok = MergeSort::check(result.spec, policy, result.record); !ok)
    return fail(ErrorCode::invalid_argument, "bind: " + ok.error().message);

  const std::uint32_t block_threads[MergeSort::kKernels] = {
      policy.block_threads, detail::kPartitionBlockThreads, policy.block_threads};
  auto bound = algos::detail::bind_module(result.record, device, block_threads);
  if (!bound) return tl::unexpected(bound.error());
  auto state = std::make_unique<Executable::State>();
  state->bound = std::move(*bound);
  const auto& b = state->bound;
  detail::DispatchParams& p = state->params;
  p.launch = &b.launch;
  p.block_threads = static_cast<int>(policy.block_threads);
  p.items_per_tile = static_cast<int>(policy.items_per_tile);
  p.block_sort_vsmem_per_block = policy.block_sort_vsmem_per_block;
  p.merge_vsmem_per_block = policy.merge_vsmem_per_block;
  state->dispatch = dispatch;
  state->layout = detail::make_layout(key_size, value_size, result.spec.offset_type, p);
  state->spec = result.spec;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos::merge_sort

namespace cccl_cache::algos {
const std::string& MergeSort::dispatch_abi() {
  return merge_sort::detail::dispatch_abi_description();
}
Result<merge_sort::Executable> MergeSort::bind(const BuiltView<MergeSort>& built, int device) {
  return merge_sort::bind(built, device);
}
}  // namespace cccl_cache::algos

namespace cccl_cache::algos::merge_sort {

Executable::Executable(std::unique_ptr<State> state) : state_(std::move(state)) {}
Executable::Executable(Executable&&) noexcept = default;
Executable& Executable::operator=(Executable&&) noexcept = default;
Executable::~Executable() = default;

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return state_ ? state_->layout.bytes(num_items) : 0;
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_keys_in, const void* d_values_in, void* d_keys_out,
                                void* d_values_out, std::uint64_t num_items,
                                CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  const State& s = *state_;
  if (d_temp_storage == nullptr) {
    if (num_items > s.layout.max_items) return CUDA_ERROR_INVALID_VALUE;
    temp_storage_bytes = s.layout.bytes(num_items);
    return CUDA_SUCCESS;
  }
  // A fork()ed child holds its parent's handles: CUDA state is not inherited.
  if (!s.bound.in_this_process()) return CUDA_ERROR_NOT_INITIALIZED;
  return s.dispatch(s.params, d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                    d_keys_out, d_values_out, num_items, stream);
}

const Spec& Executable::spec() const noexcept { return state_->spec; }
int Executable::device() const noexcept { return state_->bound.device; }
std::uint32_t Executable::cc() const noexcept { return state_->bound.cc; }

}  // namespace cccl_cache::algos::merge_sort
