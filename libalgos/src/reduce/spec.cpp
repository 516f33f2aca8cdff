#include "cccl_cache/algos/reduce/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::reduce {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "reduce spec: " + std::move(what));
  };
  if (!is_unsigned_offset(offset_type)) return bad("offset must be uint32 or uint64");
  if (type.is_struct()) {
    CCCL_CACHE_CHECK(validate_stand_in_struct("reduce spec: field 'type'", "reduce", type));
    if (op.kind != OpKind::custom)
      return bad("field 'op': struct items need a custom operator (the well-known ones are for scalars)");
    if (!input.is_pointer())
      return fail(ErrorCode::unsupported, "reduce spec: field 'input': iterators over struct items");
    return detail::validate_associative_op("reduce spec", op, type.scalar, /*takes_state=*/true);
  }
  if (!is_element_type(type.scalar)) return bad("type must be an integer or float type, or a struct");
  CCCL_CACHE_CHECK(detail::validate_associative_op("reduce spec", op, type.scalar, /*takes_state=*/true));
  return validate_iterator("reduce spec: field 'input'", input, type.scalar, kInputIterators);
}

}  // namespace cccl_cache::algos::reduce
