// MergeSort::bind: the core bind (core/executable_state.hpp) plus what merge sort's
// dispatch needs, and the Executable's call. Fresh builds and store hits both come
// through here, so nothing after bind can tell them apart.
#include <string>

#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "merge_sort/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<MergeSort>
    : BoundState<MergeSort, merge_sort::detail::DispatchParams, merge_sort::detail::DispatchFn> {};
template class BoundExecutable<MergeSort>;

Result<merge_sort::Executable> MergeSort::bind(const BuiltView<MergeSort>& result, int device) {
  namespace d = merge_sort::detail;
  const Policy& policy = result.policy;
  const d::DispatchFn dispatch =
      d::select_dispatch(size_of(result.spec.key_type), size_of(result.spec.value_type),
                         result.spec.offset_type, /*closed_form=*/true, result.spec.iterators());
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {policy.block_threads, d::kPartitionBlockThreads,
                                                 policy.block_threads};
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads, dispatch));
  state->params.policy = policy;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::merge_sort {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return query_bytes(nullptr, nullptr, nullptr, nullptr, num_items, CUstream{},
                     algos::detail::kNoOpState);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                Input d_keys_in, Input d_values_in, void* d_keys_out,
                                void* d_values_out, std::uint64_t num_items,
                                CUstream stream, OpState op_state) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;
  // The inputs as the dispatch takes them: the arrays, or both as iterators (an array
  // packed as an array iterator); a value of another kind is refused.
  const Spec& s = spec();
  algos::detail::AllArguments<2> a;
  if (!a.set({{&s.keys_in, s.key_type.scalar, &d_keys_in.value},
              {&s.values_in, s.value_type.scalar, &d_values_in.value}},
             num_items, s.iterators()))
    return CUDA_ERROR_INVALID_VALUE;
  return call_op(&Spec::comparator, op_state, d_temp_storage != nullptr, d_temp_storage,
                 temp_storage_bytes, a.at[0], a.at[1], d_keys_out, d_values_out, num_items,
                 stream);
}

}  // namespace cccl_cache::algos::merge_sort
