#include "cccl_cache/algos/select/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::select {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "select spec: " + std::move(what));
  };
  CCCL_CACHE_CHECK(detail::validate_element_type("select spec", "type", type));
  if (type.is_struct() && op.kind != OpKind::custom)
    return bad("field 'op': struct items need a custom predicate (identity tests scalars)");
  if (offset_type != ScalarType::int64)
    return bad("field 'offset': must be int64 (DeviceSelect::If's count type)");
  if (!is_offset_type(selected_type)) return bad("field 'selected': must be int32, uint32, int64 or uint64");
  if (op.kind != OpKind::identity && op.kind != OpKind::custom)
    return bad("field 'op': must be identity (keep nonzero items) or custom (a predicate on items)");
  CCCL_CACHE_CHECK(validate_operator("select spec: field 'op'", op, /*takes_state=*/true));
  return detail::validate_item_iterators("select spec", type, input, output);
}

}  // namespace cccl_cache::algos::select
