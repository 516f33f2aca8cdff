// Scan<Id>::bind: the core bind (core/executable_state.hpp) plus what CUB's scan
// dispatch needs, and the Executable's call. Fresh builds and store hits both come
// through here, so nothing after bind can tell them apart.
#include "cccl_cache/algos/scan/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "scan/dispatch.hpp"

namespace cccl_cache::algos {

template <AlgorithmId Id>
struct detail::ExecutableState<Scan<Id>>
    : BoundState<Scan<Id>, scan::detail::DispatchParams, scan::detail::DispatchFn> {};
template class BoundExecutable<InclusiveScan>;
template class BoundExecutable<ExclusiveScan>;

template <AlgorithmId Id>
Result<scan::Executable<Id>> Scan<Id>::bind(const BuiltView<Scan>& result, int device) {
  const Policy& policy = result.policy;
  const auto layout = scan::detail::state_layout(size_of(result.spec.type), policy.accum_size);
  const scan::detail::DispatchFn dispatch =
      scan::detail::select_dispatch(size_of(result.spec.type), policy.accum_size,
                                    result.spec.offset_type, result.spec.takes_init(),
                                    /*closed_form=*/true, !result.spec.input.is_pointer(),
                                    !result.spec.output.is_pointer());
  CCCL_CACHE_CHECK(detail::bind_check(result));
  if (!scan::detail::policy_supported(scan::detail::DispatchParams{nullptr, policy, {}}))
    return fail(ErrorCode::invalid_argument, "bind: a scan policy CUB's dispatch cannot run");

  const std::uint32_t block_threads[kKernels] = {scan::kInitBlockThreads, policy.block_threads};
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads, dispatch));
  state->params.policy = policy;
  state->params.layout = *layout;  // select_dispatch has an instantiation only with one
  return Executable(std::move(state));
}
template Result<scan::InclusiveExecutable> InclusiveScan::bind(const BuiltView<InclusiveScan>&, int);
template Result<scan::ExclusiveExecutable> ExclusiveScan::bind(const BuiltView<ExclusiveScan>&, int);

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::scan {

template <AlgorithmId Id>
std::size_t Executable<Id>::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return this->query_bytes(nullptr, nullptr, num_items, nullptr, CUstream{},
                           algos::detail::kNoOpState);
}

template <AlgorithmId Id>
CUresult Executable<Id>::run(void* d_temp_storage, std::size_t& temp_storage_bytes,
                             const Input& d_in, const Output& d_out, std::uint64_t num_items,
                             const void* init, Init form, CUstream stream,
                             OpState op_state) const noexcept {
  if (!this->state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  const Spec<Id>& spec = this->state_->spec;
  if ((form != Init::none) != spec.takes_init()) return CUDA_ERROR_INVALID_VALUE;
  if (form != Init::none && init == nullptr && d_temp_storage != nullptr) return CUDA_ERROR_INVALID_VALUE;
  algos::detail::IteratorArgs io;
  if (!io.set(spec.input, spec.output, spec.type.scalar, d_in, d_out, num_items, num_items))
    return CUDA_ERROR_INVALID_VALUE;
  const auto initial = form == Init::device ? scan::detail::InitValue::on_device(init)
                                            : scan::detail::InitValue(init);
  return this->call_op(&Spec<Id>::op, op_state, d_temp_storage != nullptr, d_temp_storage,
                       temp_storage_bytes, io.in, io.out, num_items, initial, stream);
}

template class Executable<AlgorithmId::inclusive_scan>;
template class Executable<AlgorithmId::exclusive_scan>;

}  // namespace cccl_cache::algos::scan
