#include "cccl_cache/algos/radix_sort/spec.hpp"

namespace cccl_cache::algos::radix_sort {

Result<void> Spec::validate() const {
  return validate_sort("radix sort", is_unsigned_offset(offset_type),
                       "uint32 or uint64 (CUB's choose_offset_t)");
}

}  // namespace cccl_cache::algos::radix_sort
