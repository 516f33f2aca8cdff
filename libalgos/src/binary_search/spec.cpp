#include "cccl_cache/algos/binary_search/spec.hpp"

#include <string>
#include <utility>

#include "core/codegen.hpp"

namespace cccl_cache::algos::binary_search {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "binary_search spec: " + std::move(what));
  };
  CCCL_CACHE_CHECK(detail::validate_element_type("binary_search spec", "type", type));
  if (type.is_struct() && comparator.kind != OpKind::custom)
    return bad("field 'compare': struct items need a custom comparator (less and greater compare scalars)");
  if (!is_offset_type(out_type)) return bad("field 'out': must be int32, uint32, int64 or uint64");
  if (comparator.kind != OpKind::less && comparator.kind != OpKind::greater &&
      comparator.kind != OpKind::custom)
    return bad("field 'compare': must be less, greater or custom (the range's order)");
  CCCL_CACHE_CHECK(
      validate_operator("binary_search spec: field 'compare'", comparator, /*takes_state=*/true));
  CCCL_CACHE_CHECK(detail::validate_item_iterator("binary_search spec: field 'values_in'", type,
                                                  values_in, false));
  CCCL_CACHE_CHECK(detail::validate_item_iterator("binary_search spec: field 'data_in'", type,
                                                  data_in, false));
  return validate_output_iterator("binary_search spec: field 'output'", output, out_type);
}

}  // namespace cccl_cache::algos::binary_search
