#include "cccl_cache/algos/merge_sort/spec.hpp"

#include <string>
#include <utility>

namespace cccl_cache::algos::merge_sort {

namespace {
bool known_type(ScalarType t) {
  return static_cast<std::uint8_t>(t) <= static_cast<std::uint8_t>(ScalarType::float64) ||
         t == ScalarType::boolean;
}

// A struct key or value: a valid layout of a size the dispatch is instantiated for.
Result<void> check_struct(std::string_view field, const ElementType& t) {
  return validate_stand_in_struct("merge sort spec: field '" + std::string(field) + "'", "merge sort", t);
}
}  // namespace

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "merge sort spec: " + std::move(what));
  };
  if (key_type.is_struct()) {
    if (auto ok = check_struct("keys", key_type); !ok) return ok;
    if (comparator.kind != OpKind::custom)
      return bad("struct keys need a custom comparator (less and greater compare scalars)");
  } else if (!known_type(key_type.scalar) || key_type.scalar == ScalarType::none) {
    return bad("key type must be an 8..64-bit integer, float32, float64, bool or a struct (not " +
               std::string(name(key_type.scalar)) + ")");
  }
  if (value_type.is_struct()) {
    if (auto ok = check_struct("values", value_type); !ok) return ok;
  } else if (!known_type(value_type.scalar)) {
    return bad("value type must be none, an 8..64-bit integer, float32, float64, bool or a struct");
  }
  if (!is_offset_type(offset_type))
    return bad("offset type must be int32, uint32, int64 or uint64");
  if (comparator.kind != OpKind::less && comparator.kind != OpKind::greater &&
      comparator.kind != OpKind::custom)
    return bad("the comparator must be less, greater or custom");
  CCCL_CACHE_CHECK(validate_operator("merge sort spec", comparator, /*takes_state=*/true));
  if (!iterators()) return {};
  const std::string w = "merge sort spec: field ";
  if (key_type.is_struct() || value_type.is_struct())
    return fail(ErrorCode::unsupported,
                w + (keys_in.is_pointer() ? "'values_in'" : "'keys_in'") +
                    ": input iterators read scalar keys and values, not structs");
  if (keys_only() && !values_in.is_pointer())
    return bad("field 'values_in': a keys-only sort reads no values");
  CCCL_CACHE_CHECK(validate_iterator(w + "'keys_in'", keys_in, key_type.scalar, kInputIterators));
  return validate_iterator(w + "'values_in'", values_in, value_type.scalar, kInputIterators);
}

}  // namespace cccl_cache::algos::merge_sort
