#include "cccl_cache/algos/scan_by_key/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::scan_by_key {

Result<void> Spec::validate() const {
  const std::string what = "scan_by_key spec";
  auto bad = [&](std::string field, std::string rule) {
    return fail(ErrorCode::invalid_argument, what + ": field '" + field + "': " + rule);
  };
  if (!is_element_type(key_type)) return bad("keys", "must be an integer, float or bool type");
  if (!is_element_type(value_type)) return bad("values", "must be an integer, float or bool type");
  if (!is_unsigned_offset(offset_type))
    return bad("offset", "must be uint32 or uint64 (CUB's scan by key takes unsigned offsets)");
  if (equality.kind != OpKind::equal_to && equality.kind != OpKind::custom)
    return bad("equality", "must be equal_to or custom (an equality predicate on keys)");
  CCCL_CACHE_CHECK(validate_operator(what + ": field 'equality'", equality));
  // Two custom operators are defined in one source: their functions need two names.
  if (equality.kind == OpKind::custom && op.kind == OpKind::custom && equality.name == op.name)
    return bad("equality", "a custom equality and a custom op must name different functions");
  CCCL_CACHE_CHECK(detail::validate_associative_op(what, op, value_type));
  const std::string w = what + ": field ";
  CCCL_CACHE_CHECK(validate_iterator(w + "'keys_in'", keys_in, key_type, kInputIterators));
  CCCL_CACHE_CHECK(validate_iterator(w + "'values_in'", values_in, value_type, kInputIterators));
  return validate_output_iterator(w + "'values_out'", values_out, value_type);
}

}  // namespace cccl_cache::algos::scan_by_key
