#include "cccl_cache/algos/radix_sort/spec.hpp"

namespace cccl_cache::algos::radix_sort {

Result<void> Spec::validate() const {
  CCCL_CACHE_CHECK(validate_sort("radix sort", is_unsigned_offset(offset_type),
                                 "uint32 or uint64 (CUB's choose_offset_t)"));
  // The counting value input's fill kernel and temp-storage layout (executable.hpp) are
  // not built yet: only a value array is taken.
  return validate_iterator("radix sort spec: field 'values_in'", values_in, value_type,
                           iterator_bit(IteratorKind::pointer));
}

}  // namespace cccl_cache::algos::radix_sort
