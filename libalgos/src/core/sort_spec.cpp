#include "cccl_cache/algos/core/sort_spec.hpp"

#include <string>

namespace cccl_cache::algos {

Result<void> SortSpecBase::validate_sort(std::string_view what, bool offset_ok,
                                          std::string_view offset_rule) const {
  auto bad = [&](std::string_view rule) {
    return fail(ErrorCode::invalid_argument, std::string(what) + " spec: " + std::string(rule));
  };
  if (!is_element_type(key_type))
    return bad(
        "field 'keys' must be an integer, float or bool type (int8..uint64, float16, bfloat16, "
        "float32, float64, bool)");
  if (value_type.is_struct())
    CCCL_CACHE_CHECK(validate_stand_in_struct(std::string(what) + " spec: field 'values'", what, value_type));
  else if (!keys_only() && !is_element_type(value_type.scalar))
    return bad("field 'values' must be none, an element type or a struct");
  if (!offset_ok) return bad("field 'offset' must be " + std::string(offset_rule));
  return {};
}

}  // namespace cccl_cache::algos
