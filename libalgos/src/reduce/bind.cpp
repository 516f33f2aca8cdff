// Reduce::bind: the core bind (core/executable_state.hpp) plus what reduce's dispatch
// needs, and the Executable's call. Fresh builds and store hits both come through here.
#include <string>

#include "cccl_cache/algos/reduce/executable.hpp"
#include "core/accumulator.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "reduce/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<Reduce>
    : BoundState<Reduce, reduce::detail::DispatchParams, reduce::detail::DispatchFn> {};
template class BoundExecutable<Reduce>;

Result<reduce::Executable> Reduce::bind(const BuiltView<Reduce>& result, int device) {
  namespace d = reduce::detail;
  const Policy& policy = result.policy;
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const d::DispatchFn dispatch =
      d::select_dispatch(size_of(result.spec.type), policy.accum_size, result.spec.offset_type,
                         /*closed_form=*/true, !result.spec.input.is_pointer(),
                         !result.spec.output.is_pointer());
  // The build's rule again (a record is trusted no further than its checks): a scalar
  // stand-in, or for struct items the struct itself.
  const bool accepted =
      detail::accept_accumulator("reduce", policy.accum_size, policy.accum_align, result.spec.type)
          .has_value();
  if (dispatch == nullptr || !accepted)
    return fail(ErrorCode::unsupported, "bind: unsupported reduce (" + summary(result.spec) +
                                            ", accumulator of " +
                                            std::to_string(policy.accum_size) + " bytes)");
  const std::uint32_t block_threads[kKernels] = {
      policy.single_tile_threads, policy.multi_tile_threads, policy.single_tile_threads};
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads, dispatch));
  d::DispatchParams& p = state->params;
  p.multi_tile_threads = static_cast<int>(policy.multi_tile_threads);
  p.multi_tile_items = static_cast<int>(policy.multi_tile_items);
  p.single_tile_threads = static_cast<int>(policy.single_tile_threads);
  p.single_tile_items = static_cast<int>(policy.single_tile_items);
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::reduce {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return query_bytes(nullptr, nullptr, num_items, nullptr, CUstream{}, algos::detail::kNoOpState);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                                Output d_out, std::uint64_t num_items, const void* h_init,
                                CUstream stream, OpState op_state) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;
  const Spec& s = spec();
  algos::detail::IteratorArgs io;
  if (!io.set(s.input, s.output, s.type.scalar, d_in, d_out, num_items, 1)) return CUDA_ERROR_INVALID_VALUE;
  return call_op(&Spec::op, op_state, d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes,
                 io.in, io.out, num_items, h_init, stream);
}

}  // namespace cccl_cache::algos::reduce
