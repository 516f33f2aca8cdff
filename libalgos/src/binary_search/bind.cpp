// BinarySearch::bind: the core bind (core/executable_state.hpp), then the transform
// kernel's dispatch values and launch configuration (core/transform_bind.hpp), and the Executable's
// call. Fresh builds and store hits both come through here.
#include "binary_search/dispatch.hpp"
#include "cccl_cache/algos/binary_search/executable.hpp"
#include "core/iterator.hpp"
#include "core/transform_bind.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<BinarySearch>
    : BoundState<BinarySearch, binary_search::detail::DispatchParams,
                 binary_search::detail::DispatchFn> {};
template class BoundExecutable<BinarySearch>;

Result<binary_search::Executable> BinarySearch::bind(const BuiltView<BinarySearch>& result,
                                                     int device) {
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {result.policy.block_threads};
  CCCL_CACHE_TRY(auto state,
                 detail::bind_state(result, device, block_threads,
                                    binary_search::detail::select_dispatch(
                                        result.spec.out_type, true,
                                        !result.spec.values_in.is_pointer(),
                                        !result.spec.output.is_pointer(),
                                        !result.spec.data_in.is_pointer())));
  const ElementType in[1] = {result.spec.type};
  CCCL_CACHE_CHECK(transform_kernel::detail::bind_params(*state, result.policy, in, result.spec.out_type));
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::binary_search {

std::size_t Executable::temp_storage_bytes() const noexcept {
  return query_bytes(nullptr, std::uint64_t{0}, nullptr, std::uint64_t{0}, nullptr, CUstream{},
                     std::uint32_t{0}, algos::detail::kNoOpState);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                Input d_data, std::uint64_t num_items, Input d_values,
                                std::uint64_t num_values, Output d_out, CUstream stream,
                                OpState op_state) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;  // moved from
  // Arrays as they are; iterators' values packed here (core/iterator.hpp).
  const Spec& s = spec();
  algos::detail::IteratorArgs args;
  algos::detail::IteratorArg data_bytes;
  const void* data = nullptr;
  if (!args.set(s.values_in, s.output, s.type.scalar, d_values, d_out, num_values, num_values, s.out_type) ||
      !algos::detail::iterator_address(s.data_in, s.type.scalar, d_data.value, num_items, data_bytes, data))
    return CUDA_ERROR_INVALID_VALUE;
  return call_op(&Spec::comparator, op_state, d_temp_storage != nullptr, d_temp_storage,
                 temp_storage_bytes, data, num_items, args.in, num_values, args.out, stream,
                 s.comparator.state_size);
}

}  // namespace cccl_cache::algos::binary_search
