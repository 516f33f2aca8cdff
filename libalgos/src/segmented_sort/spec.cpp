#include "cccl_cache/algos/segmented_sort/spec.hpp"

namespace cccl_cache::algos::segmented_sort {

Result<void> Spec::validate() const {
  CCCL_CACHE_CHECK(validate_sort_fields("segmented sort"));
  if (!is_offset_type(offset_type))
    return fail(ErrorCode::invalid_argument,
                "segmented sort spec: field 'offset' must be int32, uint32, int64 or uint64");
  return {};
}

}  // namespace cccl_cache::algos::segmented_sort
