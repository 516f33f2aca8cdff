// Select::bind: the core bind (core/executable_state.hpp) plus what the dispatch needs,
// and the Executable's call. Fresh builds and store hits both come through here.
#include "cccl_cache/algos/select/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "select/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<Select>
    : BoundState<Select, select::detail::DispatchParams, select::detail::DispatchFn> {};
template class BoundExecutable<Select>;

Result<select::Executable> Select::bind(const BuiltView<Select>& result, int device) {
  const Policy& p = result.policy;
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {select::kInitBlockThreads, p.threads};
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads,
                                                select::detail::select_dispatch(
                                                    true, !result.spec.input.is_pointer(),
                                                    !result.spec.output.is_pointer())));
  state->params.policy = p;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::select {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return query_bytes(nullptr, nullptr, nullptr, num_items, CUstream{}, algos::detail::kNoOpState);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                                Output d_out, void* d_num_selected_out, std::uint64_t num_items,
                                CUstream stream, OpState op_state) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;
  const Spec& s = spec();
  algos::detail::IteratorArgs io;
  if (!io.set(s.input, s.output, s.type.scalar, d_in, d_out, num_items, num_items))
    return CUDA_ERROR_INVALID_VALUE;
  return call_op(&Spec::op, op_state, d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes,
                 io.in, io.out, d_num_selected_out, num_items, stream);
}

}  // namespace cccl_cache::algos::select
