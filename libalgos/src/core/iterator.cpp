// Iterators: names, description and spec text. Validation, layouts, device structs and
// the call's bytes: iterator_validate.cpp, iterator_layout.cpp, iterator_codegen.cpp,
// iterator_pack.cpp.
#include "core/iterator.hpp"

#include <algorithm>
#include <cstddef>

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

}  // namespace cccl_cache::algos
