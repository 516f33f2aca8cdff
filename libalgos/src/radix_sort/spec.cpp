#include "cccl_cache/algos/radix_sort/spec.hpp"

namespace cccl_cache::algos::radix_sort {

Result<void> Spec::validate() const {
  CCCL_CACHE_CHECK(validate_sort_fields("radix sort"));
  if (!is_unsigned_offset(offset_type))
    return fail(ErrorCode::invalid_argument,
                "radix sort spec: field 'offset' must be uint32 or uint64 (CUB's "
                "choose_offset_t)");
  return {};
}

}  // namespace cccl_cache::algos::radix_sort
