// SegmentedReduce::bind: the core bind (core/executable_state.hpp) plus what the
// dispatch needs, and the Executable's call. Fresh builds and store hits both come
// through here.
#include <string>

#include "cccl_cache/algos/segmented_reduce/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
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
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads,
                                                d::select_dispatch(size_of(result.spec.type),
                                                                   result.spec.offset_type,
                                                                   result.spec.iterators())));
  state->params.policy = p;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::segmented_reduce {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_segments) const noexcept {
  return state_ ? detail::temp_storage_bytes(num_segments) : 0;
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                                Output d_out, std::uint64_t num_segments, Input d_begin_offsets,
                                Input d_end_offsets, const void* h_init, CUstream stream,
                                std::uint64_t max_segment_size, OpState op_state) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  if (detail::temp_storage_bytes(num_segments) == 0) return CUDA_ERROR_INVALID_VALUE;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = detail::temp_storage_bytes(num_segments);
    return CUDA_SUCCESS;
  }
  // Each argument as the dispatch takes it: the arrays, or all four as iterators (an
  // array packed as an array iterator, each with what advancing it between launches
  // needs); a value of another kind is refused. A reverse input is not taken (its end
  // would be the input's length, which only the offsets know).
  const Spec& s = spec();
  const bool all = s.iterators();
  algos::detail::PackedIterator packed[4];
  const void* at[4] = {};
  const Iterator* its[4] = {&s.input, &s.output, &s.begin_offsets, &s.end_offsets};
  const IteratorValue* values[4] = {&d_in.value, &d_out.value, &d_begin_offsets.value,
                                    &d_end_offsets.value};
  for (int k = 0; k < 4; ++k)
    if (!algos::detail::pack_argument(*its[k], k < 2 ? s.type.scalar : s.offset_type,
                                      k < 2 ? size_of(s.type) : size_of(s.offset_type), *values[k],
                                      num_segments, all, packed[k], at[k]))
      return CUDA_ERROR_INVALID_VALUE;
  return call_op(&Spec::op, op_state, true, d_temp_storage, temp_storage_bytes, at[0],
                 const_cast<void*>(at[1]), num_segments, at[2], at[3], h_init, max_segment_size,
                 stream);
}

}  // namespace cccl_cache::algos::segmented_reduce
