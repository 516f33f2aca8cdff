#include "cccl_cache/algos/three_way_partition/spec.hpp"

#include <string>
#include <utility>

namespace cccl_cache::algos::three_way_partition {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "three_way_partition spec: " + std::move(what));
  };
  if (!is_element_type(type)) return bad("field 'type': must be an integer, float or bool type");
  if (offset_type != ScalarType::int32 && offset_type != ScalarType::int64)
    return bad("field 'offset': must be int32 or int64 (DevicePartition::If's signed count type)");
  if (!is_offset_type(selected_type)) return bad("field 'selected': must be int32, uint32, int64 or uint64");
  for (const auto& [field, op] : {std::pair{"first_op", &first_op}, std::pair{"second_op", &second_op}}) {
    const std::string what = "field '" + std::string(field) + "'";
    if (op->kind != OpKind::identity && op->kind != OpKind::custom)
      return bad(what + ": must be identity (select nonzero items) or custom (a predicate on items)");
    CCCL_CACHE_CHECK(
        validate_operator("three_way_partition spec: " + what, *op, /*takes_state=*/true));
  }
  const std::string w = "three_way_partition spec: field ";
  CCCL_CACHE_CHECK(validate_iterator(w + "'input'", input, type, kInputIterators));
  for (const auto& [field, it] : {std::pair{"first_output", &first_output},
                                  std::pair{"second_output", &second_output},
                                  std::pair{"unselected_output", &unselected_output}})
    CCCL_CACHE_CHECK(validate_output_iterator(w + "'" + field + "'", *it, type));
  return {};
}

}  // namespace cccl_cache::algos::three_way_partition
