// UniqueByKey::bind: the core bind (core/executable_state.hpp) plus what CUB's dispatch
// needs, and the Executable's call. Fresh builds and store hits both come through here.
#include "cccl_cache/algos/unique_by_key/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "unique_by_key/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<UniqueByKey>
    : BoundState<UniqueByKey, unique_by_key::detail::DispatchParams,
                 unique_by_key::detail::DispatchFn> {};
template class BoundExecutable<UniqueByKey>;

Result<unique_by_key::Executable> UniqueByKey::bind(const BuiltView<UniqueByKey>& result,
                                                    int device) {
  namespace d = unique_by_key::detail;
  const Policy& p = result.policy;
  const Spec& spec = result.spec;
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {unique_by_key::kInitBlockThreads, p.threads};
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads,
                                                d::select_dispatch(spec.offset_type, true,
                                                                   spec.iterators())));
  state->params.policy = p;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::unique_by_key {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return query_bytes(nullptr, nullptr, nullptr, nullptr, nullptr, num_items, CUstream{},
                     algos::detail::kNoOpState);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                Input d_keys_in, Input d_values_in, Output d_keys_out,
                                Output d_values_out, void* d_num_selected_out,
                                std::uint64_t num_items, CUstream stream,
                                OpState op_state) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;
  // Each argument as the dispatch takes it: the arrays, or all four as iterators (an array
  // packed as an array iterator); a value of another kind is refused.
  const Spec& s = spec();
  algos::detail::AllArguments<4> a;
  const ScalarType k = s.key_type.scalar, v = s.value_type.scalar;
  if (!a.set({{&s.keys_in, k, &d_keys_in.value},
              {&s.values_in, v, &d_values_in.value},
              {&s.keys_out, k, &d_keys_out.value},
              {&s.values_out, v, &d_values_out.value}},
             num_items, s.iterators()))
    return CUDA_ERROR_INVALID_VALUE;
  return call_op(&Spec::op, op_state, d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes,
                 a.at[0], a.at[1], a.out(2), a.out(3), d_num_selected_out, num_items, stream);
}

}  // namespace cccl_cache::algos::unique_by_key
