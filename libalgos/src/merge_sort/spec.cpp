#include "cccl_cache/algos/merge_sort/spec.hpp"

namespace cccl_cache::algos::merge_sort {

namespace {
bool known_type(ScalarType t) {
  return static_cast<std::uint8_t>(t) <= static_cast<std::uint8_t>(ScalarType::float64);
}
}  // namespace

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "merge sort spec: " + std::move(what));
  };
  if (!known_type(key_type) || key_type == ScalarType::none)
    return bad("key type must be an 8..64-bit integer, float32 or float64 (not " +
               std::string(name(key_type)) + ")");
  if (!known_type(value_type))
    return bad("value type must be none, an 8..64-bit integer, float32 or float64");
  if (!is_offset_type(offset_type))
    return bad("offset type must be int32, uint32, int64 or uint64");
  if (comparator.kind != OpKind::less && comparator.kind != OpKind::greater &&
      comparator.kind != OpKind::custom)
    return bad("the comparator must be less, greater or custom");
  return validate_operator("merge sort spec", comparator, /*takes_state=*/true);
}

}  // namespace cccl_cache::algos::merge_sort
