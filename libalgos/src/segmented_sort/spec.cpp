#include "cccl_cache/algos/segmented_sort/spec.hpp"

namespace cccl_cache::algos::segmented_sort {

Result<void> Spec::validate() const {
  return validate_sort("segmented sort", is_offset_type(offset_type),
                       "int32, uint32, int64 or uint64");
}

}  // namespace cccl_cache::algos::segmented_sort
