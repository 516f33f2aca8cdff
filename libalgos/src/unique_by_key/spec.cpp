#include "cccl_cache/algos/unique_by_key/spec.hpp"

#include <string>
#include <utility>

namespace cccl_cache::algos::unique_by_key {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "unique_by_key spec: " + std::move(what));
  };
  if (!is_element_type(key_type)) return bad("field 'keys': must be an integer, float or bool type");
  if (!is_element_type(value_type)) return bad("field 'values': must be an integer, float or bool type");
  if (!is_unsigned_offset(offset_type))
    return bad("field 'offset': must be uint32 or uint64 (CUB's offset for 4- and 8-byte counts)");
  if (!is_offset_type(selected_type)) return bad("field 'selected': must be int32, uint32, int64 or uint64");
  if (op.kind != OpKind::equal_to && op.kind != OpKind::custom)
    return bad("field 'op': must be equal_to or custom (an equality predicate on keys)");
  CCCL_CACHE_CHECK(validate_operator("unique_by_key spec: field 'op'", op, /*takes_state=*/true));
  const std::string w = "unique_by_key spec: field ";
  CCCL_CACHE_CHECK(validate_iterator(w + "'keys_in'", keys_in, key_type, kInputIterators));
  CCCL_CACHE_CHECK(validate_iterator(w + "'values_in'", values_in, value_type, kInputIterators));
  CCCL_CACHE_CHECK(validate_output_iterator(w + "'keys_out'", keys_out, key_type));
  return validate_output_iterator(w + "'values_out'", values_out, value_type);
}

}  // namespace cccl_cache::algos::unique_by_key
