#include "cccl_cache/algos/segmented_sort/spec.hpp"

namespace cccl_cache::algos::segmented_sort {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "segmented sort spec: " + std::move(what));
  };
  if (!is_element_type(key_type))
    return bad("field 'keys' must be an integer or float type (int8..uint64, float16, bfloat16, "
               "float32, float64)");
  if (value_type != ScalarType::none && !is_element_type(value_type))
    return bad("field 'values' must be none or an element type");
  if (!is_offset_type(offset_type))
    return bad("field 'offset' must be int32, uint32, int64 or uint64");
  return {};
}

}  // namespace cccl_cache::algos::segmented_sort
