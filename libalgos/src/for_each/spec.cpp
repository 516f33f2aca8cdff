#include "cccl_cache/algos/for_each/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::for_each {

Result<void> Spec::validate() const {
  CCCL_CACHE_CHECK(detail::validate_element_type("for_each spec", "type", type));
  if (op.kind != OpKind::custom)
    return fail(ErrorCode::invalid_argument,
                "for_each spec: field 'op': must be custom (source naming a __device__ function "
                "called with each item)");
  CCCL_CACHE_CHECK(validate_operator("for_each spec: field 'op'", op, /*takes_state=*/true));
  if (!is_offset_type(offset_type))
    return fail(ErrorCode::invalid_argument,
                "for_each spec: field 'offset': must be int32, uint32, int64 or uint64");
  return detail::validate_item_iterator("for_each spec: field 'input'", type, input, false);
}

}  // namespace cccl_cache::algos::for_each
