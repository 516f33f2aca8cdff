// ThreeWayPartition::bind: the core bind (core/executable_state.hpp) plus what the
// dispatch needs, and the Executable's call. Fresh builds and store hits both come
// through here.
#include "cccl_cache/algos/three_way_partition/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "three_way_partition/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<ThreeWayPartition>
    : BoundState<ThreeWayPartition, three_way_partition::detail::DispatchParams,
                 three_way_partition::detail::DispatchFn> {};
template class BoundExecutable<ThreeWayPartition>;

Result<three_way_partition::Executable> ThreeWayPartition::bind(
    const BuiltView<ThreeWayPartition>& result, int device) {
  const Policy& p = result.policy;
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {three_way_partition::kInitBlockThreads, p.threads};
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads,
                                                three_way_partition::detail::select_dispatch(
                                                    result.spec.offset_type, true,
                                                    result.spec.iterators())));
  state->params.policy = p;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::three_way_partition {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return query_bytes(nullptr, nullptr, nullptr, nullptr, nullptr, num_items, CUstream{},
                     algos::detail::kNoOpState, algos::detail::kNoOpState);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                                Output d_first_part_out, Output d_second_part_out,
                                Output d_unselected_out, void* d_num_selected_out,
                                std::uint64_t num_items, CUstream stream, OpState first_op_state,
                                OpState second_op_state) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;
  // Each argument as the dispatch takes it: the arrays, or all four as iterators (an array
  // packed as an array iterator); a value of another kind is refused.
  const Spec& s = spec();
  algos::detail::AllArguments<4> a;
  const ScalarType t = s.type.scalar;
  if (!a.set({{&s.input, t, &d_in.value},
              {&s.first_output, t, &d_first_part_out.value},
              {&s.second_output, t, &d_second_part_out.value},
              {&s.unselected_output, t, &d_unselected_out.value}},
             num_items, s.iterators()))
    return CUDA_ERROR_INVALID_VALUE;
  return call_op2(&Spec::first_op, first_op_state, &Spec::second_op, second_op_state,
                  d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, a.at[0], a.out(1),
                  a.out(2), a.out(3), d_num_selected_out, num_items, stream);
}

}  // namespace cccl_cache::algos::three_way_partition
