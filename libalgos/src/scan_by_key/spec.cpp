#include "cccl_cache/algos/scan_by_key/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::scan_by_key {

Result<void> Spec::validate() const {
  const std::string what = "scan_by_key spec";
  const std::string w = what + ": field ";
  auto bad = [&](std::string field, std::string rule) {
    return fail(ErrorCode::invalid_argument, w + "'" + field + "': " + rule);
  };
  CCCL_CACHE_CHECK(detail::validate_element_type(what, "keys", key_type));
  CCCL_CACHE_CHECK(detail::validate_element_type(what, "values", value_type));
  // The host dispatch sizes each tile's saved key, and the accumulator's tile state, by
  // stand-ins of the sizes it is instantiated for.
  CCCL_CACHE_CHECK(validate_stand_in_struct(w + "'keys'", "scan_by_key", key_type));
  CCCL_CACHE_CHECK(validate_stand_in_struct(w + "'values'", "scan_by_key", value_type));
  if (!is_unsigned_offset(offset_type))
    return bad("offset", "must be uint32 or uint64 (CUB's scan by key takes unsigned offsets)");
  if (equality.kind != OpKind::equal_to && equality.kind != OpKind::custom)
    return bad("equality", "must be equal_to or custom (an equality predicate on keys)");
  if (key_type.is_struct() && equality.kind != OpKind::custom)
    return bad("equality", "struct keys need a custom equality (equal_to compares scalars)");
  CCCL_CACHE_CHECK(validate_operator(w + "'equality'", equality));
  // Two custom operators are defined in one source: their functions need two names.
  if (equality.kind == OpKind::custom && op.kind == OpKind::custom && equality.name == op.name)
    return bad("equality", "a custom equality and a custom op must name different functions");
  if (value_type.is_struct() && op.kind != OpKind::custom)
    return bad("op", "struct values need a custom operator (the well-known ones are for scalars)");
  CCCL_CACHE_CHECK(detail::validate_associative_op(what, op, value_type.scalar));
  CCCL_CACHE_CHECK(detail::validate_item_iterator(w + "'keys_in'", key_type, keys_in, false));
  CCCL_CACHE_CHECK(detail::validate_item_iterator(w + "'values_in'", value_type, values_in, false));
  return detail::validate_item_iterator(w + "'values_out'", value_type, values_out, true);
}

}  // namespace cccl_cache::algos::scan_by_key
