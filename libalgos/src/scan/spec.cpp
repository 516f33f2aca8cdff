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
  if (offset_type != ScalarType::uint32 && offset_type != ScalarType::uint64)
    return bad("offset", "must be uint32 or uint64 (CUB's scan takes unsigned offsets)");
  if (op.kind == OpKind::custom) return validate_operator(what + ": field 'op'", op);
  if (!detail::is_binary_kind(op.kind) || op.kind == OpKind::minus)
    return bad("op", "must be plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, "
                     "logical_and, logical_or or custom (a scan needs an associative operator)");
  if (!detail::kind_applies_to(op.kind, type))
    return bad("op", std::string(op_kind_name(op.kind)) + " does not apply to " +
                         std::string(name(type)));
  if (auto ok = validate_operator(what + ": field 'op'", op); !ok) return ok;
  return {};
}

template struct Spec<AlgorithmId::inclusive_scan>;
template struct Spec<AlgorithmId::exclusive_scan>;

}  // namespace cccl_cache::algos::scan
