#include "cccl_cache/algos/core/sort_spec.hpp"

#include <string>

namespace cccl_cache::algos {

Result<void> SortSpecBase::validate_sort_fields(std::string_view what) const {
  auto bad = [&](std::string_view rule) {
    return fail(ErrorCode::invalid_argument, std::string(what) + " spec: " + std::string(rule));
  };
  if (!is_element_type(key_type))
    return bad("field 'keys' must be an integer or float type (int8..uint64, float16, bfloat16, "
               "float32, float64)");
  if (value_type != ScalarType::none && !is_element_type(value_type))
    return bad("field 'values' must be none or an element type");
  return {};
}

}  // namespace cccl_cache::algos
