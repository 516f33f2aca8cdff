// Iterators' validation: the kinds each role accepts, zips and nested iterators' trees,
// transform operators and their states.
#include <string>

#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

namespace {
constexpr std::uint32_t kOutputs =
    iterator_bit(IteratorKind::pointer) | iterator_bit(IteratorKind::reverse) |
    iterator_bit(IteratorKind::permutation) | iterator_bit(IteratorKind::transform) |
    iterator_bit(IteratorKind::discard);

Result<void> validate_in_role(std::string_view what, const Iterator& it, ScalarType element,
                              std::uint32_t accepted, bool output, int depth);
Result<void> validate_zip(std::string_view what, const Iterator& it, bool output, int depth,
                          std::uint32_t accepted);
// The kinds a zip's components take: every input (output) kind but discard (an output's is
// its own case), within `accepted` for inputs.
constexpr std::uint32_t component_kinds(bool output, std::uint32_t accepted) {
  return (output ? kOutputs : kInputIterators & accepted) & ~iterator_bit(IteratorKind::discard);
}

// A component of a zip or a nested iterator as an input (output) over its own value type:
// an array of a named element type, or an iterator of the `accepted` kinds whose value type
// is named or follows.
Result<void> validate_component(const std::string& cw, const Iterator& c, bool output, int depth,
                                std::uint32_t accepted) {
  if (c.kind == IteratorKind::pointer) {
    if (!is_element_type(c.type) || !(c == Iterator::array(c.type)))
      return fail(ErrorCode::invalid_argument, cw + ": an array component is its value type (e.g. float32)");
    return {};
  }
  if (output && c.kind == IteratorKind::discard)
    return validate_in_role(cw, c, c.type, kOutputs, true, depth);
  if (c.kind == IteratorKind::zip)
    return fail(ErrorCode::unsupported,
                cw + ": a zip here (a zip is read as an algorithm's struct items or as a "
                     "transform's operands)");
  if ((accepted & iterator_bit(c.kind)) == 0)
    return fail(ErrorCode::unsupported, cw + ": a " + std::string(iterator_kind_name(c.kind)) +
                                            " iterator is not " + (output ? "an output" : "supported here"));
  const ScalarType v = component_value_type(c);
  if (v == ScalarType::none)
    return fail(ErrorCode::invalid_argument,
                cw + ": a component names its value type (e.g. counting(int64), reverse(float32); "
                     "a transform over a zip: transform(OP,zip(...),V))");
  return validate_in_role(cw, c, v, accepted, output, depth);
}

// Whether every custom operator in `it` has one source (`source`: the first's).
bool one_source(const Iterator& it, const std::string*& source) {
  if (it.kind == IteratorKind::transform && it.op.kind == OpKind::custom) {
    if (source != nullptr && *source != it.op.source) return false;
    source = &it.op.source;
  }
  for (const Iterator& c : it.components)
    if (!one_source(c, source)) return false;
  return true;
}

// A transform's operator over operands of types `operands` (one, or a zip's).
Result<void> validate_transform_op(std::string_view what, const Iterator& it,
                                   std::span<const ScalarType> operands) {
  const std::string field = std::string(what) + ": transform iterator's operator";
  // A custom operator may be stateful: its state is packed into the iterator.
  if (it.op.kind == OpKind::custom) return validate_operator(field, it.op, /*takes_state=*/true);
  const bool unary = operands.size() == 1;
  if (unary ? !detail::is_unary_kind(it.op.kind)
            : operands.size() != 2 || !detail::is_binary_kind(it.op.kind))
    return fail(ErrorCode::invalid_argument,
                std::string(what) + ": transform iterator: the operator must be " +
                    (unary ? "identity, negate, logical_not, bit_not or custom (unary)"
                     : operands.size() == 2
                         ? "a binary kind (plus, multiplies, minimum, less, ...) or custom over a zip of two"
                         : "custom (of " + std::to_string(operands.size()) + " arguments) over a zip of " +
                               std::to_string(operands.size())));
  for (const ScalarType t : operands)
    if (!detail::kind_applies_to(it.op.kind, t))
      return fail(ErrorCode::invalid_argument, std::string(what) + ": transform iterator: " +
                                                   std::string(op_kind_name(it.op.kind)) +
                                                   " does not apply to " + std::string(name(t)));
  return validate_operator(field, it.op);
}

// A transform over an iterator or a permutation over iterators (Iterator::nested), its
// components of the `accepted` input kinds (an output's indices: any input kind).
Result<void> validate_nested(std::string_view what, const Iterator& it, bool output, int depth,
                             std::uint32_t accepted) {
  const std::uint32_t inputs = component_kinds(false, output ? kInputIterators : accepted);
  const std::string w(what);
  auto bad = [&](const std::string& why) { return fail(ErrorCode::invalid_argument, w + ": " + why); };
  if (depth + 1 >= static_cast<int>(kMaxIteratorDepth))
    return fail(ErrorCode::unsupported,
                w + ": iterators nested more than " + std::to_string(kMaxIteratorDepth) + " deep");
  if (it.index_type != ScalarType::none || it.load != CacheLoad::none || it.counting_base)
    return bad("a nested " + std::string(iterator_kind_name(it.kind)) +
               " iterator takes no index type, load or counting base of its own");
  if (it.kind == IteratorKind::transform) {
    if (output)
      return fail(ErrorCode::unsupported,
                  w + ": an output transform iterator writes an array (transform(OP,V))");
    if (it.components.size() != 1) return bad("a transform iterator takes one base");
    if (it.type != ScalarType::none && !is_element_type(it.type))
      return bad("transform iterator: unknown value type");
    const Iterator& base = it.components[0];
    if (base.is_pointer() || base.kind == IteratorKind::counting)
      return bad("a transform over an array or a counting iterator is written transform(OP,V) or "
                 "transform(OP,counting(V))");
    ScalarType operands[kMaxZipComponents] = {};
    std::size_t arity = 1;
    if (base.kind == IteratorKind::zip) {
      CCCL_CACHE_CHECK(validate_zip(w + ": transform's base", base, false, depth + 1, inputs));
      arity = base.components.size();
      for (std::size_t k = 0; k < arity; ++k) operands[k] = component_value_type(base.components[k]);
    } else {
      CCCL_CACHE_CHECK(validate_component(w + ": transform's base", base, false, depth + 1, inputs));
      operands[0] = component_value_type(base);
    }
    return validate_transform_op(what, it, {operands, arity});
  }
  if (it.kind == IteratorKind::reverse) {
    if (output)
      return fail(ErrorCode::unsupported, w + ": an output reverse iterator writes an array (reverse(V))");
    if (it.components.size() != 1 || it.type != ScalarType::none)
      return bad("a reverse over an iterator takes its base only (its value type is the base's)");
    const Iterator& base = it.components[0];
    if (base.is_pointer()) return bad("a reverse over an array is written reverse(V)");
    if (base.kind == IteratorKind::zip)
      return fail(ErrorCode::unsupported,
                  w + ": a reverse over a zip (reverse each component: zip(reverse(V0),reverse(V1),...))");
    // Read at num_items - 1 - i: every input kind, a shuffle and a reverse (whose extent is
    // the call's count) too.
    return validate_component(w + ": reverse's base", base, false, depth + 1, inputs);
  }
  if (it.kind != IteratorKind::permutation) return bad("only a zip, transform, permutation or reverse takes components");
  if (it.components.size() != 2 || it.type != ScalarType::none)
    return bad("a permutation over iterators takes its values and its indices only");
  const Iterator& values = it.components[0];
  const Iterator& indices = it.components[1];
  if (values.is_pointer() && indices.is_pointer())
    return bad("a permutation of two arrays is written permutation(V,I)");
  if (output && !values.is_pointer())
    return fail(ErrorCode::unsupported, w + ": an output permutation writes its values to an array");
  // Read at its indices, not at 0 .. n-1: no kind whose extent is the call's count (a
  // shuffle beyond its domain would never end its walk; a reverse's end is the count's).
  const std::uint32_t indexed =
      inputs & ~iterator_bit(IteratorKind::shuffle) & ~iterator_bit(IteratorKind::reverse);
  CCCL_CACHE_CHECK(validate_component(w + ": permutation's values", values, false, depth + 1, indexed));
  CCCL_CACHE_CHECK(validate_component(w + ": permutation's indices", indices, false, depth + 1, inputs));
  const ScalarType index = component_value_type(indices);
  if (!is_offset_type(index))
    return bad("permutation iterator: the indices must be int32, uint32, int64 or uint64, not " +
               std::string(name(index)));
  return {};
}

Result<void> validate_in_role(std::string_view what, const Iterator& it, ScalarType element,
                              std::uint32_t accepted, bool output, int depth) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::invalid_argument, std::string(what) + ": " + why);
  };
  const std::string kind(iterator_kind_name(it.kind));
  if (kind == "unknown") return bad("unknown iterator kind");
  if ((accepted & iterator_bit(it.kind)) == 0)
    return fail(ErrorCode::unsupported, std::string(what) + ": a " + kind + " iterator is not " +
                                            (output ? "an output" : "supported here"));
  if (it.nested()) return validate_nested(what, it, output, depth, accepted);
  if (!it.components.empty()) return bad("only a zip, transform, permutation or reverse takes components");
  if (it.kind == IteratorKind::pointer || it.kind == IteratorKind::discard) {
    if (!(it == Iterator{it.kind})) return bad("a " + kind + " iterator takes no type, index or operator");
    return {};
  }
  if (it.type != ScalarType::none && !is_element_type(it.type))
    return bad(kind + " iterator: unknown value type");
  const bool cache_modified = it.kind == IteratorKind::cache_modified;
  if (cache_modified != (it.load != CacheLoad::none))
    return bad(cache_modified ? "a cache_modified iterator needs a load (ca, cg, cs, cv, ldg, volatile)"
                              : "only a cache_modified iterator takes a load");
  if (cache_modified && cache_load_name(it.load) == "unknown")
    return bad("cache_modified iterator: unknown load");
  const ScalarType v = detail::iterator_value_type(it, element);
  const bool permutation = it.kind == IteratorKind::permutation;
  if (permutation != (it.index_type != ScalarType::none))
    return bad(permutation
                   ? "a permutation iterator needs an index type (int32, uint32, int64, uint64)"
                   : "only a permutation iterator takes an index type");
  if (permutation && !is_offset_type(it.index_type))
    return bad("permutation iterator: the index type must be int32, uint32, int64 or uint64, not " +
               std::string(name(it.index_type)));
  const bool transform = it.kind == IteratorKind::transform;
  if (!transform && (it.counting_base || !(it.op == Operator::of(OpKind::identity))))
    return bad("only a transform iterator takes an operator or a counting base");
  if (output && it.counting_base) return bad("an output transform iterator writes an array, not a counting base");
  const bool counts = it.kind == IteratorKind::counting || it.counting_base;
  // Integers only: CUB advances an iterator by block offsets, so a float count would
  // round differently from start + i.
  if (counts && (is_float(v) || v == ScalarType::boolean))
    return bad("a counting iterator counts in an integer type, not " + std::string(name(v)));
  if (it.kind == IteratorKind::shuffle && (is_float(v) || v == ScalarType::boolean))
    return bad("a shuffle iterator yields indices: an integer type, not " + std::string(name(v)));
  if (transform) {
    // An input's operator reads V; an output's, the algorithm's values.
    const ScalarType operand = output ? element : v;
    return validate_transform_op(what, it, {&operand, 1});
  }
  return {};
}

// The checks every iterator tree passes at the top: one source, and packed state that
// fits a call's argument.
Result<void> validate_tree(std::string_view what, const Iterator& it, ScalarType element) {
  const std::string* source = nullptr;
  if (!one_source(it, source))
    return fail(ErrorCode::invalid_argument,
                std::string(what) + ": an iterator's custom operators share one source (define every "
                                    "function in it)");
  const std::size_t bytes = detail::argument_extent(it, element).size;
  if (bytes > sizeof(detail::IteratorArg::bytes))
    return fail(ErrorCode::unsupported, std::string(what) + ": the iterator's state is " +
                                            std::to_string(bytes) + " bytes, more than " +
                                            std::to_string(sizeof(detail::IteratorArg::bytes)));
  return {};
}
}  // namespace

Result<void> validate_iterator(std::string_view what, const Iterator& it, ScalarType element,
                               std::uint32_t accepted) {
  CCCL_CACHE_CHECK(
      validate_in_role(what, it, element, accepted & ~iterator_bit(IteratorKind::discard), false, 0));
  return validate_tree(what, it, element);
}

Result<void> validate_output_iterator(std::string_view what, const Iterator& it,
                                      ScalarType element) {
  CCCL_CACHE_CHECK(validate_in_role(what, it, element, kOutputs, true, 0));
  return validate_tree(what, it, element);
}

namespace {
Result<void> validate_zip(std::string_view what, const Iterator& it, bool output, int depth,
                          std::uint32_t accepted) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::invalid_argument, std::string(what) + ": " + why);
  };
  if (it.kind != IteratorKind::zip) return bad("not a zip iterator");
  if (!(it == Iterator::zip(it.components)))
    return bad("a zip iterator takes components only (no type, index or operator of its own)");
  if (it.components.empty() || it.components.size() > kMaxZipComponents)
    return bad("a zip iterator takes 1 to " + std::to_string(kMaxZipComponents) +
               " components, not " + std::to_string(it.components.size()));
  bool positioned = false;
  for (std::size_t k = 0; k < it.components.size(); ++k) {
    const Iterator& c = it.components[k];
    const std::string cw = std::string(what) + ": zip component " + std::to_string(k);
    if (c.kind == IteratorKind::zip)
      return fail(ErrorCode::unsupported,
                  cw + ": a zip inside a zip (list its components instead)");
    if (c.kind == IteratorKind::shuffle)
      return fail(ErrorCode::unsupported, cw + ": a shuffle iterator is not a zip component");
    CCCL_CACHE_CHECK(validate_component(cw, c, output, depth, accepted));
    positioned =
        positioned || (c.kind != IteratorKind::constant && c.kind != IteratorKind::discard);
  }
  if (!positioned)
    return bad("a zip iterator needs a component that is neither constant nor discard");
  return {};
}
}  // namespace

Result<void> validate_zip_iterator(std::string_view what, const Iterator& it, bool output,
                                   std::uint32_t input_kinds) {
  CCCL_CACHE_CHECK(validate_zip(what, it, output, 0, component_kinds(output, input_kinds)));
  return validate_tree(what, it, ScalarType::none);
}

}  // namespace cccl_cache::algos
