#include "cccl_cache/algos/unique_by_key/spec.hpp"

namespace cccl_cache::algos::unique_by_key {

namespace {
bool is_offset(ScalarType t) {
  return t == ScalarType::int32 || t == ScalarType::uint32 || t == ScalarType::int64 ||
         t == ScalarType::uint64;
}
}  // namespace

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "unique_by_key spec: " + std::move(what));
  };
  if (!is_element_type(key_type)) return bad("field 'keys': must be an integer or float type");
  if (!is_element_type(value_type)) return bad("field 'values': must be an integer or float type");
  if (offset_type != ScalarType::uint32 && offset_type != ScalarType::uint64)
    return bad("field 'offset': must be uint32 or uint64 (CUB's offset for 4- and 8-byte counts)");
  if (!is_offset(selected_type)) return bad("field 'selected': must be int32, uint32, int64 or uint64");
  if (op.kind != OpKind::equal_to && op.kind != OpKind::custom)
    return bad("field 'op': must be equal_to or custom (an equality predicate on keys)");
  return validate_operator("unique_by_key spec: field 'op'", op);
}

}  // namespace cccl_cache::algos::unique_by_key
