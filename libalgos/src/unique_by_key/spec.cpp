#include "cccl_cache/algos/unique_by_key/spec.hpp"

#include <string>
#include <tuple>
#include <utility>

#include "core/codegen.hpp"

namespace cccl_cache::algos::unique_by_key {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "unique_by_key spec: " + std::move(what));
  };
  CCCL_CACHE_CHECK(detail::validate_element_type("unique_by_key spec", "keys", key_type));
  CCCL_CACHE_CHECK(detail::validate_element_type("unique_by_key spec", "values", value_type));
  if (!is_unsigned_offset(offset_type))
    return bad("field 'offset': must be uint32 or uint64 (CUB's offset for 4- and 8-byte counts)");
  if (!is_offset_type(selected_type)) return bad("field 'selected': must be int32, uint32, int64 or uint64");
  if (op.kind != OpKind::equal_to && op.kind != OpKind::custom)
    return bad("field 'op': must be equal_to or custom (an equality predicate on keys)");
  if (key_type.is_struct() && op.kind != OpKind::custom)
    return bad("field 'op': struct keys need a custom equality (equal_to compares scalars)");
  CCCL_CACHE_CHECK(validate_operator("unique_by_key spec: field 'op'", op, /*takes_state=*/true));
  const std::string w = "unique_by_key spec: field ";
  for (const auto& [field, it, t, output] :
       {std::tuple{"keys_in", &keys_in, &key_type, false},
        std::tuple{"values_in", &values_in, &value_type, false},
        std::tuple{"keys_out", &keys_out, &key_type, true},
        std::tuple{"values_out", &values_out, &value_type, true}})
    CCCL_CACHE_CHECK(detail::validate_item_iterator(w + "'" + field + "'", *t, *it, output));
  return {};
}

}  // namespace cccl_cache::algos::unique_by_key
