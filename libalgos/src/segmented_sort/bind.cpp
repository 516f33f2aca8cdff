// SegmentedSort::bind: the core bind (core/executable_state.hpp) with the block size each
// kernel is launched with, plus what segmented sort's dispatch needs, and the Executable's
// call. Fresh builds and store hits both come through here.
#include "cccl_cache/algos/segmented_sort/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "segmented_sort/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<SegmentedSort>
    : BoundState<SegmentedSort, segmented_sort::detail::DispatchParams,
                 segmented_sort::detail::DispatchFn> {};
template class BoundExecutable<SegmentedSort>;

Result<segmented_sort::Executable> SegmentedSort::bind(const BuiltView<SegmentedSort>& result,
                                                       int device) {
  namespace d = segmented_sort::detail;
  const d::DispatchFn dispatch =
      d::select_dispatch(size_of(result.spec.key_type), size_of(result.spec.value_type),
                         result.spec.offset_type, true, result.spec.iterators());
  CCCL_CACHE_TRY(auto state,
                 detail::bind_holding_policy(result, device, dispatch, [](const Policy& p) {
                   return d::launch_threads(p);
                 }));
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::segmented_sort {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items,
                                           std::uint64_t num_segments) const noexcept {
  return query_bytes(nullptr, nullptr, nullptr, nullptr, num_items, num_segments, nullptr, nullptr,
                     CUstream{});
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_keys_in, void* d_keys_out, const void* d_values_in,
                                void* d_values_out, std::uint64_t num_items,
                                std::uint64_t num_segments, Input d_begin_offsets,
                                Input d_end_offsets, CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  const Spec& s = spec();
  if (s.keys_only()) d_values_in = d_values_out = nullptr;  // ignored
  // The offsets as the dispatch takes them: the arrays, or both as iterators (an array
  // packed as an array iterator, each with what advancing it between partitions needs);
  // a value of another kind is refused. Size queries read none.
  algos::detail::PackedIterator packed[2];
  const void* at[2] = {};
  if (d_temp_storage != nullptr) {
    const Iterator* its[2] = {&s.begin_offsets, &s.end_offsets};
    const IteratorValue* values[2] = {&d_begin_offsets.value, &d_end_offsets.value};
    for (int k = 0; k < 2; ++k)
      if (!algos::detail::pack_argument(*its[k], s.offset_type, size_of(s.offset_type),
                                        *values[k], num_segments, s.iterators(), packed[k], at[k]))
        return CUDA_ERROR_INVALID_VALUE;
  }
  return call(d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
              d_values_in, d_values_out, num_items, num_segments, at[0], at[1], stream);
}

const Policy& Executable::policy() const noexcept { return state_->params.policy; }

}  // namespace cccl_cache::algos::segmented_sort
