#include "cccl_cache/algos/scan/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::scan {

template <AlgorithmId Id>
Result<void> Spec<Id>::validate() const {
  const std::string what = std::string(algorithm_name(Id)) + " spec";
  auto bad = [&](std::string field, std::string rule) {
    return fail(ErrorCode::invalid_argument, what + ": field '" + field + "': " + rule);
  };
  if (!is_element_type(type)) return bad("type", "must be an integer or float type");
  if (!is_unsigned_offset(offset_type))
    return bad("offset", "must be uint32 or uint64 (CUB's scan takes unsigned offsets)");
  if (kExclusive && init)
    return bad("init", "an exclusive scan always takes its initial value (leave init out)");
  CCCL_CACHE_CHECK(detail::validate_associative_op(what, op, type, /*takes_state=*/true));
  return validate_iterator(what + ": field 'input'", input, type, kInputIterators);
}

template struct Spec<AlgorithmId::inclusive_scan>;
template struct Spec<AlgorithmId::exclusive_scan>;

}  // namespace cccl_cache::algos::scan
