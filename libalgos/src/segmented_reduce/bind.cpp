// SegmentedReduce::bind: the core bind (core/executable_state.hpp) plus what the
// dispatch needs, and the Executable's call. Fresh builds and store hits both come
// through here.
#include <string>

#include "cccl_cache/algos/segmented_reduce/executable.hpp"
#include "core/executable_state.hpp"
#include "segmented_reduce/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<SegmentedReduce>
    : BoundState<SegmentedReduce, segmented_reduce::detail::DispatchParams,
                 segmented_reduce::detail::DispatchFn> {};
template class BoundExecutable<SegmentedReduce>;

Result<segmented_reduce::Executable> SegmentedReduce::bind(const BuiltView<SegmentedReduce>& result,
                                                           int device) {
  namespace d = segmented_reduce::detail;
  const Policy& p = result.policy;
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {p.threads};
  CCCL_CACHE_TRY(auto state,
                 detail::bind_state(result, device, block_threads,
                                    d::select_dispatch(size_of(result.spec.type), result.spec.offset_type)));
  state->params.policy = p;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::segmented_reduce {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_segments) const noexcept {
  return state_ ? detail::temp_storage_bytes(num_segments) : 0;
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_in, void* d_out, std::uint64_t num_segments,
                                const void* d_begin_offsets, const void* d_end_offsets,
                                const void* h_init, CUstream stream, std::uint64_t max_segment_size,
                                OpState op_state) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  if (detail::temp_storage_bytes(num_segments) == 0) return CUDA_ERROR_INVALID_VALUE;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = detail::temp_storage_bytes(num_segments);
    return CUDA_SUCCESS;
  }
  return call_op(&Spec::op, op_state, true, d_temp_storage, temp_storage_bytes, d_in, d_out,
                 num_segments, d_begin_offsets, d_end_offsets, h_init, max_segment_size, stream);
}

}  // namespace cccl_cache::algos::segmented_reduce
