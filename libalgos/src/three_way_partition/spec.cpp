#include "cccl_cache/algos/three_way_partition/spec.hpp"

#include <string>
#include <tuple>
#include <utility>

#include "core/codegen.hpp"

namespace cccl_cache::algos::three_way_partition {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "three_way_partition spec: " + std::move(what));
  };
  CCCL_CACHE_CHECK(detail::validate_element_type("three_way_partition spec", "type", type));
  if (offset_type != ScalarType::int32 && offset_type != ScalarType::int64)
    return bad("field 'offset': must be int32 or int64 (DevicePartition::If's signed count type)");
  if (!is_offset_type(selected_type)) return bad("field 'selected': must be int32, uint32, int64 or uint64");
  for (const auto& [field, op] : {std::pair{"first_op", &first_op}, std::pair{"second_op", &second_op}}) {
    const std::string what = "field '" + std::string(field) + "'";
    if (type.is_struct() && op->kind != OpKind::custom)
      return bad(what + ": struct items need a custom predicate (identity tests scalars)");
    if (op->kind != OpKind::identity && op->kind != OpKind::custom)
      return bad(what + ": must be identity (select nonzero items) or custom (a predicate on items)");
    CCCL_CACHE_CHECK(
        validate_operator("three_way_partition spec: " + what, *op, /*takes_state=*/true));
  }
  const std::string w = "three_way_partition spec: field ";
  for (const auto& [field, it, output] :
       {std::tuple{"input", &input, false}, std::tuple{"first_output", &first_output, true},
        std::tuple{"second_output", &second_output, true},
        std::tuple{"unselected_output", &unselected_output, true}})
    CCCL_CACHE_CHECK(detail::validate_item_iterator(w + "'" + field + "'", type, *it, output));
  return {};
}

}  // namespace cccl_cache::algos::three_way_partition
