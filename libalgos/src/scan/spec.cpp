#include "cccl_cache/algos/scan/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::scan {

template <AlgorithmId Id>
Result<void> Spec<Id>::validate() const {
  const std::string what = std::string(algorithm_name(Id)) + " spec";
  auto bad = [&](std::string field, std::string rule) {
    return fail(ErrorCode::invalid_argument, what + ": field '" + field + "': " + rule);
  };
  if (!is_unsigned_offset(offset_type))
    return bad("offset", "must be uint32 or uint64 (CUB's scan takes unsigned offsets)");
  if (kExclusive && init)
    return bad("init", "an exclusive scan always takes its initial value (leave init out)");
  CCCL_CACHE_CHECK(detail::validate_items(what, algorithm_name(Id), type, op, input, output));
  // The host dispatch's stand-in for a struct is aligned to at most 8 bytes: the layout of
  // the initial-value argument (CUB's InputValue, a union with a pointer) is then the
  // device's for every struct alignment up to 8 (dispatch.cu).
  if (type.is_struct() && type.layout.alignment > 8)
    return fail(ErrorCode::unsupported, what + ": field 'type': struct '" + type.layout.name +
                                            "' aligned to " + std::to_string(type.layout.alignment) +
                                            " bytes: scans take structs aligned to at most 8");
  return {};
}

template struct Spec<AlgorithmId::inclusive_scan>;
template struct Spec<AlgorithmId::exclusive_scan>;

}  // namespace cccl_cache::algos::scan
