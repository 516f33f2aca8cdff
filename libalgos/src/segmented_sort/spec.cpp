#include "cccl_cache/algos/segmented_sort/spec.hpp"

#include <string>

#include "core/codegen.hpp"

namespace cccl_cache::algos::segmented_sort {

Result<void> Spec::validate() const {
  CCCL_CACHE_CHECK(validate_sort("segmented sort", is_offset_type(offset_type),
                                 "int32, uint32, int64 or uint64"));
  // The offsets' iterators are packed for num_segments elements (a reverse one's end).
  const std::string w = "segmented sort spec: field ";
  CCCL_CACHE_CHECK(
      validate_iterator(w + "'begin_offsets'", begin_offsets, offset_type, kInputIterators));
  return validate_iterator(w + "'end_offsets'", end_offsets, offset_type, kInputIterators);
}

}  // namespace cccl_cache::algos::segmented_sort
