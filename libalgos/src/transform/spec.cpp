#include "cccl_cache/algos/transform/spec.hpp"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/codegen.hpp"

namespace cccl_cache::algos::transform {

template <int N>
Result<void> Spec<N>::validate() const {
  const std::string what = N == 1 ? "unary transform spec" : "binary transform spec";
  auto bad = [&](std::string_view field, const std::string& why) {
    return fail(ErrorCode::invalid_argument, what + ": " + std::string(field) + ": " + why);
  };
  std::vector<std::pair<std::string_view, const ElementType*>> types;
  fields(*this, [&](const Field& f, const auto& v) {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, ElementType>) types.emplace_back(f.name, &v);
  });
  constexpr std::string_view op_field = "op";
  for (const auto& [field, type] : types) {
    if (type->is_struct()) {
      CCCL_CACHE_CHECK(validate_struct(what + ": " + std::string(field), *type));
      if (op.kind != OpKind::custom)
        return bad(op_field, "a struct (" + std::string(field) + ") needs a custom operator");
      continue;
    }
    const ScalarType t = type->scalar;
    if (!is_element_type(t)) return bad(field, "must be an integer, float or bool type, or a struct");
    // CUB would convert between __half/__nv_bfloat16 and other types implicitly, which
    // these types do not all allow: no mixing (a struct is converted by the user's code).
    const bool narrow_float = t == ScalarType::float16 || t == ScalarType::bfloat16;
    for (const auto& [other_field, other] : types)
      if (narrow_float && !other->is_struct() && other->scalar != t)
        return bad(field, std::string(name(t)) + " cannot be mixed with " +
                              std::string(name(other->scalar)) + " (" + std::string(other_field) + ")");
    if (op.kind != OpKind::custom && !detail::kind_applies_to(op.kind, t))
      return bad(op_field, std::string(op_kind_name(op.kind)) + " does not apply to " +
                               std::string(name(t)));
  }
  const bool right_arity =
      N == 1 ? detail::is_unary_kind(op.kind) : detail::is_binary_kind(op.kind);
  if (op.kind != OpKind::custom && !right_arity)
    return bad(op_field, N == 1 ? "must be identity, negate, logical_not, bit_not or custom"
                                : "must be plus, minus, multiplies, divides, modulus, minimum, "
                                  "maximum, bit_and, bit_or, bit_xor, logical_and, logical_or, "
                                  "equal_to, not_equal_to, less, less_equal, greater, "
                                  "greater_equal or custom");
  CCCL_CACHE_CHECK(
      validate_operator(what + ": " + std::string(op_field), op, /*takes_state=*/true));
  for (int k = 0; k < N; ++k) {
    const std::string field = N == 1 ? "input" : "input" + std::to_string(k + 1);
    CCCL_CACHE_CHECK(detail::validate_item_iterator(what + ": field '" + field + "'", in[k], inputs[k], false));
  }
  return detail::validate_item_iterator(what + ": field 'output'", out, output, true);
}

template struct Spec<1>;
template struct Spec<2>;

}  // namespace cccl_cache::algos::transform
