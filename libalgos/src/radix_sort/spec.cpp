#include "cccl_cache/algos/radix_sort/spec.hpp"

namespace cccl_cache::algos::radix_sort {

Result<void> Spec::validate() const {
  CCCL_CACHE_CHECK(validate_sort("radix sort", is_unsigned_offset(offset_type),
                                 "uint32 or uint64 (CUB's choose_offset_t)"));
  const char* what = "radix sort spec: field 'values_in'";
  if (!values_in.is_pointer() && (keys_only() || value_type.is_struct()))
    return fail(ErrorCode::invalid_argument,
                std::string(what) + ": a counting value input needs a scalar value type (values=)");
  return validate_iterator(what, values_in, value_type.scalar,
                           iterator_bit(IteratorKind::pointer) | iterator_bit(IteratorKind::counting));
}

}  // namespace cccl_cache::algos::radix_sort
