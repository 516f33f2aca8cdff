// Iterators: names, spec text, validation, the device structs and the call's bytes.
#include "core/iterator.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "cccl_cache/algos/core/spec_fields.hpp"
#include "core/codegen.hpp"
#include "core/name_table.hpp"

namespace cccl_cache::algos {

namespace {
constexpr detail::Named<IteratorKind> kKindNames[] = {
    {IteratorKind::pointer, "pointer"},   {IteratorKind::counting, "counting"},
    {IteratorKind::constant, "constant"}, {IteratorKind::transform, "transform"},
    {IteratorKind::reverse, "reverse"},   {IteratorKind::permutation, "permutation"},
    {IteratorKind::discard, "discard"},   {IteratorKind::zip, "zip"},
    {IteratorKind::shuffle, "shuffle"},   {IteratorKind::cache_modified, "cache_modified"},
};
constexpr detail::Named<CacheLoad> kLoadNames[] = {
    {CacheLoad::ca, "ca"}, {CacheLoad::cg, "cg"},   {CacheLoad::cs, "cs"},
    {CacheLoad::cv, "cv"}, {CacheLoad::ldg, "ldg"}, {CacheLoad::volatile_load, "volatile"},
};
}  // namespace

std::string_view cache_load_name(CacheLoad load) noexcept { return detail::name_in(kLoadNames, load); }

std::optional<CacheLoad> parse_cache_load(std::string_view name) noexcept {
  return detail::value_in(kLoadNames, name);
}

std::string_view iterator_kind_name(IteratorKind kind) noexcept {
  return detail::name_in(kKindNames, kind);
}

std::optional<IteratorKind> parse_iterator_kind(std::string_view name) noexcept {
  return detail::value_in(kKindNames, name);
}

std::string describe(const Iterator& it) {
  const std::string kind(iterator_kind_name(it.kind));
  const std::string v(name(it.type));
  switch (it.kind) {
    case IteratorKind::pointer:
      return it.type == ScalarType::none ? kind : v;  // a zip's array component: its V
    case IteratorKind::zip: {
      std::string out = kind + "(";
      for (std::size_t k = 0; k < it.components.size(); ++k)
        out += (k == 0 ? "" : ",") + describe(it.components[k]);
      return out + ")";
    }
    case IteratorKind::permutation:
      if (it.nested() && it.components.size() == 2)
        return kind + "(" + describe(it.components[0]) + "," + describe(it.components[1]) + ")";
      return kind + "(" + v + "," + std::string(name(it.index_type)) + ")";
    case IteratorKind::reverse:
      if (it.nested()) return kind + "(" + describe(it.components[0]) + ")";
      return it.type == ScalarType::none ? kind : kind + "(" + v + ")";
    case IteratorKind::cache_modified: {
      const std::string load(cache_load_name(it.load));
      return kind + "(" + load + (it.type == ScalarType::none ? "" : "," + v) + ")";
    }
    case IteratorKind::transform: {
      std::string base;
      if (it.nested())
        base = describe(it.components[0]) + (it.type == ScalarType::none ? "" : "," + v);
      else if (it.counting_base)
        base = it.type == ScalarType::none ? "counting" : "counting(" + v + ")";
      else if (it.type != ScalarType::none)
        base = v;
      return kind + "(" + describe(it.op) + (base.empty() ? "" : "," + base) + ")";
    }
    default:
      return it.type == ScalarType::none ? kind : kind + "(" + v + ")";
  }
}

ScalarType component_value_type(const Iterator& c) noexcept {
  if (c.type != ScalarType::none || c.kind == IteratorKind::zip || c.components.empty()) return c.type;
  return component_value_type(c.components[0]);  // a transform's or reverse's base, a permutation's values
}

const std::string& iterator_source(const Iterator& it) noexcept {
  for (const Iterator& c : it.components)
    if (!iterator_source(c).empty()) return iterator_source(c);
  return it.op.source;
}

namespace {
// `args` split at its top-level commas (those outside parentheses).
std::vector<std::string_view> split_arguments(std::string_view args) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == '(') ++depth;
    if (args[i] == ')') --depth;
    if (args[i] == ',' && depth == 0) {
      out.push_back(args.substr(from, i - from));
      from = i + 1;
    }
  }
  out.push_back(args.substr(from));
  return out;
}
}  // namespace

namespace {
// A component of a zip or a nested iterator: a type (an array of it) or an iterator.
bool parse_component(const Field& f, std::string_view text, std::string_view source,
                     Iterator& out) {
  if (const auto v = parse_scalar_type(text); v && *v != ScalarType::none) {
    out = Iterator::array(*v);
    return true;
  }
  return !text.empty() && static_cast<bool>(parse_field(f, text, source, out));
}
}  // namespace

Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         Iterator& out) {
  auto bad = [&] {
    return fail(ErrorCode::invalid_argument,
                std::string(f.name) + "='" + std::string(text) +
                    "' is not an iterator (pointer, counting(TYPE), constant(TYPE), "
                    "reverse(TYPE), reverse(ITERATOR), permutation(TYPE,INDEX), transform(OP[,TYPE]), "
                    "transform(OP,counting(TYPE)), discard, zip(COMPONENT,...), "
                    "shuffle(TYPE) or cache_modified(LOAD[,TYPE]), LOAD one of ca, cg, cs, cv, "
                    "ldg, volatile)");
  };
  // Parentheses deeper than any valid tree (kMaxIteratorDepth levels, each at most two
  // deep: transform(OP,counting(V))) are refused before the parse recurses into them.
  int depth = 0, deepest = 0;
  for (const char c : text) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    deepest = std::max(deepest, depth);
  }
  if (deepest > 2 * static_cast<int>(kMaxIteratorDepth))
    return fail(ErrorCode::invalid_argument, std::string(f.name) + ": iterators nested more than " +
                                                 std::to_string(kMaxIteratorDepth) + " deep");
  std::string_view kind_text = text, args;
  if (const auto open = text.find('('); open != std::string_view::npos) {
    if (text.back() != ')') return bad();
    kind_text = text.substr(0, open);
    args = text.substr(open + 1, text.size() - open - 2);
    if (args.empty()) return bad();
  }
  const auto kind = parse_iterator_kind(kind_text);
  if (!kind) return bad();
  Iterator it;
  it.kind = *kind;
  // The first argument and the rest (after the first top-level comma).
  const auto comma = args.find(',');
  const std::string_view first = args.substr(0, comma);
  const std::string_view rest = comma == std::string_view::npos ? "" : args.substr(comma + 1);
  auto type = [&](std::string_view t, ScalarType& v) {
    auto parsed = parse_scalar_type(t);
    if (!parsed) return false;
    v = *parsed;
    return true;
  };
  switch (it.kind) {
    case IteratorKind::pointer:
    case IteratorKind::discard:
      if (!args.empty()) return bad();
      break;
    case IteratorKind::zip: {
      if (args.empty()) return bad();
      for (std::string_view c : split_arguments(args)) {
        Iterator component;
        if (!parse_component(f, c, source, component)) return bad();
        it.components.push_back(std::move(component));
      }
      break;
    }
    case IteratorKind::permutation: {
      const auto parts = split_arguments(args);
      if (parts.size() != 2) return bad();
      if (type(parts[0], it.type) && type(parts[1], it.index_type)) break;
      // Nested: either part an iterator, a type its array.
      it.type = it.index_type = ScalarType::none;
      for (std::string_view part : parts) {
        Iterator c;
        if (!parse_component(f, part, source, c)) return bad();
        it.components.push_back(std::move(c));
      }
      break;
    }
    case IteratorKind::reverse:
      if (args.find('(') != std::string_view::npos) {  // over an iterator
        Iterator base;
        CCCL_CACHE_CHECK(parse_field(f, args, source, base));
        it.components.push_back(std::move(base));
      } else if (!args.empty() && !type(args, it.type)) {
        return bad();
      }
      break;
    case IteratorKind::cache_modified: {
      const auto load = parse_cache_load(first);
      if (!load || (!rest.empty() && !type(rest, it.type))) return bad();
      it.load = *load;
      break;
    }
    case IteratorKind::transform: {
      if (first.empty()) return bad();
      // One source serves the custom operators; a well-known one takes none.
      CCCL_CACHE_CHECK(parse_field(f, first, parse_op_kind(first) ? std::string_view{} : source, it.op));
      if (const auto parts = split_arguments(rest);
          !rest.empty() && parts[0].find('(') != std::string_view::npos &&
          !parts[0].starts_with("counting(") && parts.size() <= 2) {
        // Nested: over an iterator, with its value type where named.
        Iterator base;
        if (!parse_field(f, parts[0], source, base) ||
            (parts.size() == 2 && !type(parts[1], it.type)))
          return bad();
        it.components.push_back(std::move(base));
      } else if (rest == "counting") {
        it.counting_base = true;
      } else if (rest.starts_with("counting(") && rest.ends_with(")")) {
        it.counting_base = true;
        if (!type(rest.substr(9, rest.size() - 10), it.type)) return bad();
      } else if (!rest.empty() && !type(rest, it.type)) {
        return bad();
      }
      break;
    }
    default:
      if (comma != std::string_view::npos || (!args.empty() && !type(args, it.type))) return bad();
  }
  out = std::move(it);
  return {};
}

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

namespace detail {

namespace {
// The shuffle's round count and multiplier as its layout text and device code spell them.
std::string shuffle_rounds() { return std::to_string(ShuffleState::kRounds); }
std::string shuffle_multiplier() {
  char hex[19];
  std::snprintf(hex, sizeof hex, "0x%016llX",
                static_cast<unsigned long long>(ShuffleState::kMultiplier));
  return hex;
}

// The iterator's custom operator (a zip's first component's), or null.
const Operator* custom_operator(const Iterator& it) noexcept {
  for (const Iterator& c : it.components)
    if (const Operator* op = custom_operator(c)) return op;
  return it.kind == IteratorKind::transform && it.op.kind == OpKind::custom ? &it.op : nullptr;
}
}  // namespace

namespace {
// A pointer member's position in elements (its address over the element size).
std::string address(const std::string& member, const std::string& type) {
  return "static_cast<difference_type>(reinterpret_cast<::cuda::std::uintptr_t>(" + member +
         ") / sizeof(" + type + "))";
}
}  // namespace

namespace {
// One iterator's state in its kernel argument: its size and alignment (a zip's
// components over their own V). No allocation: packing a call uses it.
using Extent = ArgumentExtent;

Extent member_extent(const Iterator& it, ScalarType element) noexcept;

// Where a zip's (or a nested iterator's) components lie in its argument (a discard
// component has no state: no member), and the argument's extent.
struct ZipLayout {
  std::size_t offset[kMaxZipComponents] = {};
  Extent extent;
};

ZipLayout zip_layout(const Iterator& it) noexcept {
  Extent members[kMaxZipComponents];
  const std::size_t n = std::min(it.components.size(), kMaxZipComponents);
  for (std::size_t k = 0; k < n; ++k) {
    const Iterator& c = it.components[k];
    members[k] = c.kind == IteratorKind::discard ? Extent{0, 1}
                                                 : member_extent(c, component_value_type(c));
  }
  ZipLayout z;
  z.extent = natural_layout({members, n}, z.offset);
  return z;
}

// An iterator's base at 0 and one member after it at its alignment (`tail`): a nested
// reverse's `last`, a stateful transform's operator (its state).
struct TailLayout {
  std::size_t tail = 0;
  Extent extent;
};

TailLayout tail_layout(Extent base, Extent tail) noexcept {
  const Extent members[2] = {base, tail};
  std::size_t at[2] = {};
  TailLayout r;
  r.extent = natural_layout(members, at);
  r.tail = at[1];
  return r;
}

// A reverse over an iterator: its base, then `last` (an int64).
TailLayout reverse_layout(const Iterator& it) noexcept { return tail_layout(zip_layout(it).extent, {8, 8}); }

// A transform's base: its components (nested), a count in V (over counting) or a pointer.
Extent transform_base_extent(const Iterator& it, ScalarType element) noexcept {
  if (it.nested()) return zip_layout(it).extent;
  const std::size_t v = std::max<std::size_t>(1, size_of(iterator_value_type(it, element)));
  return it.counting_base ? Extent{v, v} : Extent{8, 8};
}

// A stateful transform: its base, then its operator's state.
TailLayout transform_layout(const Iterator& it, ScalarType element) noexcept {
  return tail_layout(transform_base_extent(it, element), {it.op.state_size, it.op.state_alignment});
}

Extent member_extent(const Iterator& it, ScalarType element) noexcept {
  const std::size_t v = size_of(iterator_value_type(it, element));
  switch (it.kind) {
    case IteratorKind::counting:
    case IteratorKind::constant:
      return {v, v};
    case IteratorKind::permutation:
      return it.nested() ? zip_layout(it).extent : Extent{16, 8};
    case IteratorKind::transform:
      return it.op.stateful() ? transform_layout(it, element).extent : transform_base_extent(it, element);
    case IteratorKind::zip:
      return zip_layout(it).extent;
    case IteratorKind::shuffle:
      return {sizeof(ShuffleState), alignof(ShuffleState)};
    case IteratorKind::reverse:
      if (it.nested()) return reverse_layout(it).extent;
      return {8, 8};
    default:  // pointer, discard
      return {8, 8};
  }
}

}  // namespace

ArgumentExtent natural_layout(std::span<const ArgumentExtent> members, std::size_t* at) noexcept {
  ArgumentExtent s{0, 1};
  for (std::size_t k = 0; k < members.size(); ++k) {
    at[k] = (s.size + members[k].align - 1) / members[k].align * members[k].align;
    s.size = at[k] + members[k].size;
    s.align = std::max(s.align, members[k].align);
  }
  s.size = (s.size + s.align - 1) / s.align * s.align;
  return s;
}

bool pack_argument(const Iterator& it, ScalarType element, std::size_t element_size,
                   const IteratorValue& value, std::uint64_t num_items, bool as_iterators,
                   PackedIterator& packed, const void*& address) noexcept {
  packed.element = element;
  packed.element_size = element_size;
  packed.it = it.is_pointer() ? nullptr : &it;
  return argument_address(it, element, value, num_items, as_iterators, packed.arg, address);
}

ArgumentExtent argument_extent(const Iterator& it, ScalarType element) noexcept {
  const Extent e = member_extent(it, element);
  return {e.size, e.align};
}

namespace {

std::string components_text(const std::string& kind, const Iterator& it);

// What iterator_packing says of one iterator's members.
std::string layout_text(const Iterator& it) {
  switch (it.kind) {
    case IteratorKind::pointer:
      return "V* p@0";
    case IteratorKind::counting:
      return "V start@0";
    case IteratorKind::constant:
      return "V value@0";
    case IteratorKind::reverse:
      if (it.nested())
        return components_text("reverse", it) + ", i64 last@" + std::to_string(reverse_layout(it).tail) +
               " (num_items - 1)";
      return "V* end@0 (first + num_items)";
    case IteratorKind::permutation:
      return it.nested() ? components_text("permutation", it) : "V* values@0, I* idx@8";
    case IteratorKind::transform: {
      const std::string base = it.nested() ? components_text("transform", it)
                               : it.counting_base ? "V start@0"
                                                  : "V* p@0";
      if (!it.op.stateful()) return base;
      return base + ", op state " + std::to_string(it.op.state_size) + "/" +
             std::to_string(it.op.state_alignment) + " after the base at its alignment";
    }
    case IteratorKind::cache_modified:
      return "V* p@0 (loaded " + std::string(cache_load_name(it.load)) + ")";
    case IteratorKind::discard:
      return "ptrdiff_t pos@0 (0)";
    case IteratorKind::shuffle:
      return "u64 pos@0 (0), u64 n@8, u32 half_bits@16, u32 keys[" + shuffle_rounds() +
             "]@24 (SplitMix64 of the seed, low 32 bits); Feistel " + shuffle_rounds() +
             " rounds, F(r,k) = ((r ^ k) * " + shuffle_multiplier() + ") >> (64 - half_bits)";
    case IteratorKind::zip:
      return components_text("zip", it);
  }
  return {};
}

// A zip's or a nested iterator's components, each with its value type, layout and offset.
std::string components_text(const std::string& kind, const Iterator& it) {
  const ZipLayout z = zip_layout(it);
  std::string out = kind;
  for (std::size_t k = 0; k < it.components.size(); ++k) {
    const Iterator& c = it.components[k];
    out += (k == 0 ? " c" : ", c") + std::to_string(k) + " " +
           std::string(name(component_value_type(c))) + " ";
    out += c.kind == IteratorKind::discard
               ? "discard (no member)"
               : "{" + layout_text(c) + "}@" + std::to_string(k < kMaxZipComponents ? z.offset[k] : 0);
  }
  return out;
}
}  // namespace

std::string iterator_packing(const Iterator& it) {
  if (it.is_pointer()) return {};
  const std::string size = it.kind == IteratorKind::zip || it.nested()
                               ? std::to_string(member_extent(it, ScalarType::none).size)
                           : it.kind == IteratorKind::shuffle ? std::to_string(sizeof(ShuffleState))
                                                              : "16";
  return "// cccl-cache host packing 1: " + layout_text(it) + "; " + size +
         " bytes aligned 16, the rest zero\n";
}

namespace {
// A static_assert that struct `n` has extent `e` (and `also`, where given): the layout the
// host packs it in.
std::string layout_assert(const std::string& n, Extent e, const std::string& also = {}) {
  return "static_assert(" + (also.empty() ? "" : also + " && ") + "sizeof(" + n + ") == " +
         std::to_string(e.size) + " && alignof(" + n + ") == " + std::to_string(e.align) +
         ", \"the iterator's layout (cccl-cache host packing)\");\n";
}

// A stateful transform's operator as its iterator's member `op` (its state, which the
// host packs after the base), and how the iterator calls it; a stateless one is made
// where it is called, as before state existed.
std::string op_member(const std::string& n, const Operator& op) {
  return op.stateful() ? "  " + n + "_op op;\n" : "";
}
std::string op_call(const std::string& n, const Operator& op) { return op.stateful() ? "op" : n + "_op{}"; }
// A stateful transform's layout check (nothing for other iterators).
std::string stateful_layout_assert(const std::string& n, const Iterator& it, ScalarType element) {
  if (it.kind != IteratorKind::transform || !it.op.stateful()) return {};
  return layout_assert(n, transform_layout(it, element).extent);
}

// The parts of one iterator struct: its state members, what operator[](i) returns, how
// it advances by n, and the position iterators compare by.
struct IteratorParts {
  std::string members, at, advance, position;
};

// `struct n`: a random-access iterator whose operator[] returns `reference` (`a` for an
// input; an output defines its own in `reference_def`), over the parts' state.
std::string random_access_struct(const std::string& n, const std::string& a,
                                 const std::string& reference, const std::string& reference_def,
                                 const IteratorParts& parts) {
  const std::string hd = "  __host__ __device__ ";
  std::string out = "struct " + n + " {\n  using value_type = " + a +
                    ";\n  using difference_type = ::cuda::std::ptrdiff_t;\n  using pointer = void;\n";
  out += reference_def.empty() ? "  using reference = " + a + ";\n" : reference_def;
  out += "  using iterator_category = ::cuda::std::random_access_iterator_tag;\n" + parts.members;
  out += hd + reference + " operator[](difference_type i) const { return " + parts.at + "; }\n";
  out += hd + reference + " operator*() const { return (*this)[0]; }\n";
  out += hd + n + "& operator+=(difference_type n) { " + parts.advance + " return *this; }\n";
  out += hd + n + "& operator-=(difference_type n) { return *this += -n; }\n";
  out += hd + n + " operator+(difference_type n) const { " + n + " r = *this; return r += n; }\n";
  out += hd + n + " operator-(difference_type n) const { " + n + " r = *this; return r += -n; }\n";
  out += "  __host__ __device__ friend " + n + " operator+(difference_type n, const " + n +
         "& it) { return it + n; }\n";
  out += hd + n + "& operator++() { return *this += 1; }\n";
  out += hd + n + "& operator--() { return *this += -1; }\n";
  out += hd + n + " operator++(int) { " + n + " r = *this; *this += 1; return r; }\n";
  out += hd + n + " operator--(int) { " + n + " r = *this; *this += -1; return r; }\n";
  out += hd + "difference_type position() const { return " + parts.position + "; }\n";
  out += hd + "difference_type operator-(const " + n + "& o) const { return position() - o.position(); }\n";
  for (const char* cmp : {"==", "!=", "<"})
    out += hd + "bool operator" + cmp + "(const " + n + "& o) const { return position() " + cmp +
           " o.position(); }\n";
  return out + "};\n";
}
}  // namespace

namespace {
// Defines `struct <name>`, a zip's iterator over struct items `a` (its name): its
// components' structs first (<name>_<k>), then the zip holding them as members c<k>,
// read into a{c0[i], c1[i], ...} (an input) or written field by field (an output,
// through its components' references). A static member checks that field k of `a` is
// component k's V, so a struct of other fields fails the build naming the component.
std::string zip_struct(const std::string& n, const Iterator& it, const std::string& a,
                       bool output) {
  std::string out = iterator_packing(it);
  for (const Iterator& c : it.components) {
    if (component_value_type(c) == ScalarType::float16) out += "#include <cuda_fp16.h>\n";
    if (component_value_type(c) == ScalarType::bfloat16) out += "#include <cuda_bf16.h>\n";
  }
  IteratorParts parts;
  std::string fields, written, checks, values, stores, references;
  bool positioned = false;
  for (std::size_t k = 0; k < it.components.size(); ++k) {
    const Iterator& c = it.components[k];
    const std::string ks = std::to_string(k), ck = "c" + ks, type = n + "_" + ks;
    fields += (k == 0 ? "" : ", ") + std::string("f") + ks;
    written += (k == 0 ? "" : ", ") + std::string("x") + ks;
    if (c.kind == IteratorKind::discard) {
      stores += "      (void)x" + ks + ";\n";
      continue;
    }
    const ScalarType cv = component_value_type(c);
    const std::string v(cuda_name(cv)), spelled(name(cv));
    out += output ? output_iterator_struct(type, c, cv) : iterator_struct(type, c, cv);
    parts.members += "  " + type + " " + ck + ";\n";
    // The same type, or an integer of the same size and signedness (long and long long).
    const std::string f = "decltype(f" + ks + ")";
    checks += "    static_assert(::cuda::std::is_same_v<" + f + ", " + v +
              "> || (::cuda::std::is_integral_v<" + f + "> && ::cuda::std::is_integral_v<" + v +
              "> && sizeof(" + f + ") == sizeof(" + v + ") && ::cuda::std::is_signed_v<" + f +
              "> == ::cuda::std::is_signed_v<" + v + ">), \"zip component " + ks + " is " +
              spelled + " but field " + ks + " of " + a + " is not\");\n";
    values += (values.empty() ? "" : ", ") + ck + "[i]";
    parts.advance += ck + " += n; ";
    if (output) {
      references += "    " + type + "::reference r" + ks + ";\n";
      stores += "      r" + ks + " = x" + ks + ";\n";
    }
    if (!positioned && c.kind != IteratorKind::constant) {
      parts.position = ck + ".position()";
      positioned = true;
    }
  }
  parts.members += "  __host__ __device__ static void cccl_cache_fields(" + a +
                   "& s) {\n    auto& [" + fields + "] = s;\n" + checks + "  }\n";
  if (!output) {
    parts.at = a + "{" + values + "}";
    return out + random_access_struct(n, a, a, "", parts);
  }
  parts.at = "reference{" + values + "}";
  const std::string reference_def = "  struct reference {\n" + references +
                                    "    __host__ __device__ const reference& operator=(const " +
                                    a + "& x) const {\n      const auto& [" + written + "] = x;\n" +
                                    stores + "      return *this;\n    }\n  };\n";
  return out + random_access_struct(n, a, "reference", reference_def, parts);
}
}  // namespace

namespace {
// A shuffle's state and its permutation P (shuffle_index's, on the device).
std::string shuffle_members() {
  const std::string rounds = shuffle_rounds();
  const std::string multiplier = shuffle_multiplier() + "ull";
  return "  using u64 = unsigned long long;\n"
         "  u64 pos, n;\n  unsigned int half_bits, unused;\n  unsigned int keys[" + rounds +
         "];\n"
         "  __host__ __device__ u64 feistel(u64 x) const {\n"
         "    const u64 mask = (1ull << half_bits) - 1;\n"
         "    unsigned int l = static_cast<unsigned int>(x >> half_bits);\n"
         "    unsigned int r = static_cast<unsigned int>(x & mask);\n"
         "    for (int k = 0; k < " + rounds + "; ++k) {\n"
         "      const unsigned int f = static_cast<unsigned int>(\n"
         "          (static_cast<u64>(r ^ keys[k]) * " + multiplier + ") >> (64 - half_bits));\n"
         "      const unsigned int t = l ^ f;\n      l = r;\n      r = t;\n    }\n"
         "    return (static_cast<u64>(l) << half_bits) | r;\n  }\n"
         "  __host__ __device__ u64 permuted(u64 x) const {\n"
         "    do { x = feistel(x); } while (x >= n);\n    return x;\n  }\n";
}
// The name of the values `it` holds over `element`: its value type's, or a struct
// element's own (an array of the struct, where a dispatch takes every argument as an
// iterator).
std::string value_name(const Iterator& it, const ElementType& element) {
  const ScalarType vt = iterator_value_type(it, element.scalar);
  return std::string(vt == ScalarType::structure ? cuda_name(element) : cuda_name(vt));
}
}  // namespace

namespace {
// The includes a component's value type needs beyond the algorithm's own.
std::string component_includes(const Iterator& c) {
  const ScalarType v = component_value_type(c);
  if (v == ScalarType::float16) return "#include <cuda_fp16.h>\n";
  if (v == ScalarType::bfloat16) return "#include <cuda_bf16.h>\n";
  return {};
}

// A component's struct, over its own value type: an input's, or an output's (`output`).
std::string component_struct(const std::string& n, const Iterator& c, bool output) {
  const ElementType v(component_value_type(c));
  return component_includes(c) + (output ? output_iterator_struct(n, c, v) : iterator_struct(n, c, v));
}

// A transform over an iterator (its operator applied to the base's element, or to a zip
// base's components' elements as arguments) or a permutation over iterators, as an input.
std::string nested_struct(const std::string& n, const Iterator& it, const std::string& a) {
  std::string out = iterator_packing(it);
  IteratorParts parts;
  std::string check;  // the layout's static_assert
  if (it.kind == IteratorKind::permutation) {
    out += component_struct(n + "_0", it.components[0], false) + component_struct(n + "_1", it.components[1], false);
    parts = {"  " + n + "_0 values;\n  " + n + "_1 idx;\n", "values[idx[i]]", "idx += n;", "idx.position()"};
  } else if (it.kind == IteratorKind::reverse) {
    out += component_struct(n + "_0", it.components[0], false);
    parts = {"  " + n + "_0 base;\n  long long last;\n", "base[last - i]", "last -= n;", "-last"};
    // The host packs the base at 0 and `last` after it (reverse_layout): the base's size
    // places `last`.
    check = layout_assert(n, reverse_layout(it).extent,
                          "sizeof(" + n + "_0) == " + std::to_string(zip_layout(it).extent.size));
  } else {
    const Iterator& base = it.components[0];
    const bool zip = base.kind == IteratorKind::zip;
    const auto& operands = zip ? base.components : it.components;
    ScalarType same = component_value_type(operands[0]);
    std::string args;
    for (std::size_t k = 0; k < operands.size(); ++k) {
      const std::string ck = "c" + std::to_string(k), type = n + "_" + std::to_string(k);
      if (component_value_type(operands[k]) != same) same = ScalarType::none;
      out += component_struct(type, operands[k], false);
      parts.members += "  " + type + " " + ck + ";\n";
      parts.advance += ck + " += n; ";
      args += (k == 0 ? "" : ", ") + ck + "[i]";
      if (parts.position.empty() && operands[k].kind != IteratorKind::constant)
        parts.position = ck + ".position()";
    }
    if (parts.position.empty()) parts.position = "difference_type(0)";
    out += operator_struct(n + "_op", it.op, static_cast<int>(operands.size()), {}, same);
    parts.members += op_member(n, it.op);
    parts.at = op_call(n, it.op) + "(" + args + ")";
  }
  parts.at = "static_cast<" + a + ">(" + parts.at + ")";
  if (check.empty()) check = stateful_layout_assert(n, it, ScalarType::none);
  return out + random_access_struct(n, a, a, "", parts) + check;
}
}  // namespace

std::string iterator_struct(std::string_view name, const Iterator& it, const ElementType& element) {
  const std::string n(name);
  const std::string a(cuda_name(element));
  if (it.kind == IteratorKind::zip) return zip_struct(n, it, a, false);
  if (it.nested()) return nested_struct(n, it, a);
  const std::string v = value_name(it, element);
  std::string out = iterator_packing(it);
  IteratorParts parts;
  const bool counts = it.kind == IteratorKind::counting || it.counting_base;
  if (counts) {
    parts.members = "  " + v + " start;\n";
    parts.at = "static_cast<" + v + ">(start + static_cast<" + v + ">(i))";
    parts.advance = "start = static_cast<" + v + ">(start + static_cast<" + v + ">(n));";
    parts.position = "static_cast<difference_type>(start)";
  }
  switch (it.kind) {
    case IteratorKind::pointer:  // a zip's array component
      parts = {"  const " + v + "* p;\n", "p[i]", "p += n;", address("p", v)};
      break;
    case IteratorKind::constant:
      parts = {"  " + v + " value;\n", "value", "(void)n;", "difference_type(0)"};
      break;
    case IteratorKind::reverse:
      parts = {"  const " + v + "* end;\n", "end[-1 - i]", "end -= n;", "-" + address("end", v)};
      break;
    case IteratorKind::permutation: {
      const std::string idx(cuda_name(it.index_type));
      parts = {"  const " + v + "* values;\n  const " + idx + "* idx;\n", "values[idx[i]]",
               "idx += n;", address("idx", idx)};
      break;
    }
    case IteratorKind::transform:
      out += operator_struct(n + "_op", it.op, 1);
      if (!counts) parts = {"  const " + v + "* p;\n", "p[i]", "p += n;", address("p", v)};
      parts.members += op_member(n, it.op);
      parts.at = op_call(n, it.op) + "(" + parts.at + ")";
      break;
    case IteratorKind::shuffle:
      parts = {shuffle_members(), "static_cast<" + v + ">(permuted(pos + static_cast<u64>(i)))",
               "pos += static_cast<u64>(n);", "static_cast<difference_type>(pos)"};
      break;
    case IteratorKind::cache_modified: {
      // CUB's ThreadLoad is device code: a host read (never made by the kernels) is plain.
      std::string load(cache_load_name(it.load));
      for (char& c : load) c = static_cast<char>(c - 'a' + 'A');
      out += "#include <cub/thread/thread_load.cuh>\n";
      parts = {"  const " + v + "* p;\n  __host__ __device__ " + v +
                   " load(difference_type i) const {\n#ifdef __CUDA_ARCH__\n    return "
                   "cub::ThreadLoad<cub::LOAD_" + load + ">(p + i);\n#else\n    return p[i];\n"
                   "#endif\n  }\n",
               "load(i)", "p += n;", address("p", v)};
      break;
    }
    default:
      break;
  }
  parts.at = "static_cast<" + a + ">(" + parts.at + ")";
  return out + random_access_struct(n, a, a, "", parts) + stateful_layout_assert(n, it, element.scalar);
}

std::string output_iterator_struct(std::string_view name, const Iterator& it,
                                   const ElementType& element) {
  const std::string n(name);
  const std::string a(cuda_name(element));
  if (it.kind == IteratorKind::zip) return zip_struct(n, it, a, true);
  // A nested permutation (the only nested output) writes its values' array.
  const std::string v = it.nested() ? std::string(cuda_name(it.components[0].type)) : value_name(it, element);
  std::string out = iterator_packing(it);
  // What element i's reference stores for a written x (discard: nothing).
  std::string stored = "x";
  IteratorParts parts;
  switch (it.kind) {
    case IteratorKind::pointer:  // a zip's array component
      parts = {"  " + v + "* p;\n", "reference{p + i}", "p += n;", address("p", v)};
      break;
    case IteratorKind::reverse:
      parts = {"  " + v + "* end;\n", "reference{end - 1 - i}", "end -= n;", "-" + address("end", v)};
      break;
    case IteratorKind::permutation: {
      if (it.nested()) {  // indices from an iterator
        out += component_struct(n + "_1", it.components[1], false);
        parts = {"  " + v + "* values;\n  " + n + "_1 idx;\n", "reference{values + idx[i]}",
                 "idx += n;", "idx.position()"};
        break;
      }
      const std::string idx(cuda_name(it.index_type));
      parts = {"  " + v + "* values;\n  const " + idx + "* idx;\n", "reference{values + idx[i]}",
               "idx += n;", address("idx", idx)};
      break;
    }
    case IteratorKind::transform:
      out += operator_struct(n + "_op", it.op, 1);
      // A stateful operator is the iterator's member, which its references point at.
      stored = it.op.stateful() ? "(*op)(x)" : n + "_op{}(x)";
      parts = {"  " + v + "* p;\n" + op_member(n, it.op), it.op.stateful() ? "reference{p + i, &op}" : "reference{p + i}",
               "p += n;", address("p", v)};
      break;
    default:  // discard
      parts = {"  difference_type pos;\n", "reference{}", "pos += n;", "pos"};
      break;
  }
  const std::string reference_def =
      it.kind == IteratorKind::discard
          ? "  struct reference {\n    __host__ __device__ const reference& operator=(const " + a +
                "&) const { return *this; }\n  };\n"
          : "  struct reference {\n    " + v + "* at;\n" +
                (it.kind == IteratorKind::transform && it.op.stateful() ? "    const " + n + "_op* op;\n" : "") +
                "    __host__ __device__ const reference& operator=(const " + a + "& x) const { *at = static_cast<" +
                v + ">(" + stored + "); return *this; }\n  };\n";
  return out + random_access_struct(n, a, "reference", reference_def, parts) +
         (it.kind == IteratorKind::transform ? stateful_layout_assert(n, it, element.scalar) : "");
}

std::string argument_type(std::string& source, const std::string& name, const Iterator& it,
                          const ElementType& element, bool output, bool as_iterators,
                          const std::string& array, std::vector<const Operator*>& defined) {
  if (it.is_pointer() && !as_iterators) return array;
  const Iterator array_it = Iterator::array(element.scalar);
  const Iterator& as = it.is_pointer() ? array_it : it;  // `defined` keeps pointers into `it`
  if (const Operator* op = custom_operator(as)) {
    bool known = false;
    for (const Operator* d : defined)
      known = known || (d->kind == OpKind::custom && d->source == op->source);
    if (!known) source += user_source(*op);
    defined.push_back(op);
  }
  source += output ? output_iterator_struct(name, as, element) : iterator_struct(name, as, element);
  return name;
}

IteratorTypes iterator_types(std::string& source, const Iterator& input, const Iterator& output,
                             const Operator& op, const ElementType& element,
                             const std::string& array) {
  std::vector<const Operator*> defined = {&op};
  IteratorTypes t;
  t.in = argument_type(source, "cccl_cache_in_t", input, element, false, false, array, defined);
  t.out = argument_type(source, "cccl_cache_out_t", output, element, true, false, array, defined);
  return t;
}

ShuffleState shuffle_state(std::uint64_t n, std::uint64_t seed) noexcept {
  ShuffleState s;
  s.n = n;
  const int bits = n < 2 ? 0 : static_cast<int>(std::bit_width(n - 1));
  s.half_bits = static_cast<std::uint32_t>(std::max(1, (bits + 1) / 2));
  std::uint64_t state = seed;  // SplitMix64
  for (std::uint32_t& key : s.keys) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    key = static_cast<std::uint32_t>(z ^ (z >> 31));
  }
  return s;
}

std::uint64_t shuffle_index(const ShuffleState& s, std::uint64_t i) noexcept {
  const std::uint32_t h = s.half_bits;
  const std::uint64_t mask = (std::uint64_t{1} << h) - 1;
  std::uint64_t x = s.pos + i;
  do {
    auto l = static_cast<std::uint32_t>(x >> h), r = static_cast<std::uint32_t>(x & mask);
    for (const std::uint32_t key : s.keys) {
      const auto f = static_cast<std::uint32_t>(
          (static_cast<std::uint64_t>(r ^ key) * ShuffleState::kMultiplier) >> (64 - h));
      const std::uint32_t t = l ^ f;
      l = r;
      r = t;
    }
    x = (static_cast<std::uint64_t>(l) << h) | r;
  } while (x >= s.n);
  return x;
}

static_assert(sizeof(ShuffleState) == 56 && alignof(ShuffleState) == 8,
              "the shuffle's layout (iterator.hpp, iterator_packing)");
static_assert(sizeof(ShuffleState) <= sizeof(IteratorArg::bytes));

namespace {
// Writes a call's `value` for `it` over `element` at `out` (the layout member_extent
// gives); false where a kind is not the spec's.
bool pack_at(const Iterator& it, ScalarType element, const IteratorValue& value,
             std::uint64_t num_items, unsigned char* out) noexcept;

// A zip's or a nested iterator's components' values (value.pointer, value.value of them)
// at their offsets.
bool pack_components(const Iterator& it, const IteratorValue& value, std::uint64_t num_items,
                     unsigned char* out) noexcept {
  std::uint64_t count = 0;
  std::memcpy(&count, value.value, sizeof count);
  const auto* components = static_cast<const IteratorValue*>(value.pointer);
  if (count != it.components.size() || components == nullptr || count > kMaxZipComponents)
    return false;
  const ZipLayout z = zip_layout(it);
  for (std::size_t k = 0; k < count; ++k) {
    const Iterator& c = it.components[k];
    if (!pack_at(c, component_value_type(c), components[k], num_items, out + z.offset[k])) return false;
  }
  return true;
}

bool pack_at(const Iterator& it, ScalarType element, const IteratorValue& value,
             std::uint64_t num_items, unsigned char* out) noexcept {
  if (value.kind != it.kind) return false;
  if (it.nested() && it.kind == IteratorKind::reverse) {
    const auto last = static_cast<std::int64_t>(num_items) - 1;
    std::memcpy(out + reverse_layout(it).tail, &last, sizeof last);
  }
  if (it.kind == IteratorKind::transform && it.op.stateful()) {  // the state after the base
    if (value.index == nullptr) return false;
    std::memcpy(out + transform_layout(it, element).tail, value.index, it.op.state_size);
  }
  if (it.nested()) return pack_components(it, value, num_items, out);
  const std::size_t v = size_of(iterator_value_type(it, element));
  auto put_pointer = [&](std::size_t at, const void* p) { std::memcpy(out + at, &p, sizeof p); };
  switch (it.kind) {
    case IteratorKind::pointer:  // a zip's array component
    case IteratorKind::cache_modified:
      put_pointer(0, value.pointer);
      return true;
    case IteratorKind::counting:
    case IteratorKind::constant:
      std::memcpy(out, value.value, v);
      return true;
    case IteratorKind::reverse:
      put_pointer(0, static_cast<const unsigned char*>(value.pointer) + num_items * v);
      return true;
    case IteratorKind::permutation:
      put_pointer(0, value.pointer);
      put_pointer(sizeof(void*), value.index);
      return true;
    case IteratorKind::transform:
      if (it.counting_base)
        std::memcpy(out, value.value, v);
      else
        put_pointer(0, value.pointer);
      return true;
    case IteratorKind::discard:
      return true;
    case IteratorKind::shuffle: {
      std::uint64_t seed = 0;
      std::memcpy(&seed, value.value, sizeof seed);
      const ShuffleState state = shuffle_state(num_items, seed);
      std::memcpy(out, &state, sizeof state);
      return true;
    }
    case IteratorKind::zip:
      return pack_components(it, value, num_items, out);
  }
  return false;
}
}  // namespace

bool pack_iterator(const Iterator& it, ScalarType element, const IteratorValue& value,
                   std::uint64_t num_items, IteratorArg& out) noexcept {
  std::memset(out.bytes, 0, sizeof(out.bytes));
  return pack_at(it, element, value, num_items, out.bytes);
}

static_assert(offsetof(PackedIterator, arg) == 0, "a PackedIterator's address is its bytes'");

void advance_array(unsigned char* bytes, std::int64_t n, std::size_t element_size) noexcept {
  std::uintptr_t p = 0;
  std::memcpy(&p, bytes, sizeof p);
  p += static_cast<std::uintptr_t>(n) * element_size;
  std::memcpy(bytes, &p, sizeof p);
}

void advance_packed(const Iterator& it, ScalarType element, unsigned char* bytes,
                    std::int64_t n) noexcept {
  const std::size_t v = size_of(iterator_value_type(it, element));
  // A pointer member at `at` moved by `count` elements of `size` bytes.
  auto move = [&](std::size_t at, std::int64_t count, std::size_t size) {
    advance_array(bytes + at, count, size);
  };
  // A count in V's low bytes (host order), wrapping as V does.
  auto count = [&] {
    std::uint64_t x = 0;
    std::memcpy(&x, bytes, v);
    x += static_cast<std::uint64_t>(n);
    std::memcpy(bytes, &x, v);
  };
  if (it.nested() && it.kind == IteratorKind::reverse) {  // its base stays, `last` moves back
    const std::size_t at = reverse_layout(it).tail;
    std::int64_t last = 0;
    std::memcpy(&last, bytes + at, sizeof last);
    last -= n;
    std::memcpy(bytes + at, &last, sizeof last);
    return;
  }
  if (it.nested()) {
    // A transform's base moves; a permutation's indices do, its values stay.
    const std::size_t k = it.kind == IteratorKind::permutation ? 1 : 0;
    const Iterator& c = it.components[k];
    advance_packed(c, component_value_type(c), bytes + zip_layout(it).offset[k], n);
    return;
  }
  switch (it.kind) {
    case IteratorKind::pointer:
    case IteratorKind::cache_modified:
      move(0, n, v);
      break;
    case IteratorKind::counting:
      count();
      break;
    case IteratorKind::reverse:
      move(0, -n, v);
      break;
    case IteratorKind::permutation:
      move(sizeof(void*), n, size_of(it.index_type));
      break;
    case IteratorKind::transform:
      if (it.counting_base)
        count();
      else
        move(0, n, v);
      break;
    case IteratorKind::discard:
    case IteratorKind::shuffle:
      move(0, n, 1);  // its position (a ptrdiff_t, a u64)
      break;
    case IteratorKind::zip: {
      const ZipLayout z = zip_layout(it);
      for (std::size_t k = 0; k < it.components.size() && k < kMaxZipComponents; ++k)
        if (it.components[k].kind != IteratorKind::discard)
          advance_packed(it.components[k], component_value_type(it.components[k]), bytes + z.offset[k], n);
      break;
    }
    case IteratorKind::constant:
      break;
  }
}

bool iterator_address(const Iterator& it, ScalarType element, const IteratorValue& value,
                      std::uint64_t num_items, IteratorArg& packed, const void*& address) noexcept {
  return argument_address(it, element, value, num_items, false, packed, address);
}

bool argument_address(const Iterator& it, ScalarType element, const IteratorValue& value,
                      std::uint64_t num_items, bool as_iterators, IteratorArg& packed,
                      const void*& address) noexcept {
  if (it.is_pointer() && !as_iterators) {
    address = value.pointer;
    return value.kind == IteratorKind::pointer;
  }
  address = packed.bytes;
  if (!it.is_pointer()) return pack_iterator(it, element, value, num_items, packed);
  std::memset(packed.bytes, 0, sizeof packed.bytes);
  return pack_at(Iterator::array(element), element, value, num_items, packed.bytes);
}

}  // namespace detail
}  // namespace cccl_cache::algos
