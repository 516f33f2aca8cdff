#include "cccl_cache/algos/reduce/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::reduce {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "reduce spec: " + std::move(what));
  };
  if (!is_element_type(type)) return bad("type must be an integer or float type");
  if (offset_type != ScalarType::uint32 && offset_type != ScalarType::uint64)
    return bad("offset must be uint32 or uint64");
  // minus is not associative: CUB's tree order would be visible in the result.
  if (op.kind != OpKind::custom && (!detail::is_binary_kind(op.kind) || op.kind == OpKind::minus))
    return bad("op must be plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, "
               "logical_and, logical_or or custom");
  if (op.kind != OpKind::custom && !detail::kind_applies_to(op.kind, type))
    return bad("op " + std::string(op_kind_name(op.kind)) + " applies to integer types only, not " +
               std::string(name(type)));
  return validate_operator("reduce spec", op);
}

}  // namespace cccl_cache::algos::reduce
