// ForEach::bind: the core bind (core/executable_state.hpp) plus the operator argument's
// layout, and the Executable's call. Fresh builds and store hits both come through here.
#include "cccl_cache/algos/for_each/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "for_each/codegen.hpp"
#include "for_each/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<ForEach>
    : BoundState<ForEach, for_each::detail::DispatchParams, for_each::detail::DispatchFn> {};
template class BoundExecutable<ForEach>;

Result<for_each::Executable> ForEach::bind(const BuiltView<ForEach>& result, int device) {
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const auto layout = for_each::detail::wrapper_layout(result.spec);
  if (layout.extent.size > for_each::detail::kMaxWrapperBytes)
    return fail(ErrorCode::invalid_argument,
                "bind: for_each's operator argument of " + std::to_string(layout.extent.size) +
                    " bytes is over " + std::to_string(for_each::detail::kMaxWrapperBytes));
  const std::uint32_t block_threads[kKernels] = {result.policy.block_threads};
  CCCL_CACHE_TRY(auto state, detail::bind_state(result, device, block_threads,
                                                for_each::detail::dispatch_for(result.spec.offset_type)));
  auto& params = state->params;
  params.policy = result.policy;
  params.items_size = static_cast<std::uint32_t>(layout.items.size);
  params.op_offset = static_cast<std::uint32_t>(layout.op_offset);
  params.op_size = static_cast<std::uint32_t>(layout.op.size);
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::for_each {

CUresult Executable::operator()(Input d_in, std::uint64_t num_items, CUstream stream,
                                OpState op_state) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;  // moved from
  const Spec& s = spec();
  algos::detail::IteratorArg packed;
  const void* items = nullptr;
  if (!algos::detail::iterator_address(s.input, s.type.scalar, d_in.value, num_items, packed, items))
    return CUDA_ERROR_INVALID_VALUE;
  // An array: the kernel's argument holds the pointer itself.
  const void* arg = s.input.is_pointer() ? static_cast<const void*>(&items) : items;
  return call_op(&Spec::op, op_state, true, arg, num_items, stream);
}

const Policy& Executable::policy() const noexcept { return state_->params.policy; }

}  // namespace cccl_cache::algos::for_each
