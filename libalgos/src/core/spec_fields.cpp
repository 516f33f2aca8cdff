// Spec fields: algorithm names, field text, the spec-text parsers and the rules on
// operators and struct types. Their canonical bytes: spec_codec.cpp.
#include "cccl_cache/algos/core/spec_fields.hpp"

#include <charconv>
#include <optional>

#include "core/name_table.hpp"

namespace cccl_cache::algos {

namespace {
constexpr detail::Named<AlgorithmId> kAlgorithmNames[] = {
    {AlgorithmId::merge_sort, "merge_sort"},
    {AlgorithmId::reduce, "reduce"},
    {AlgorithmId::inclusive_scan, "inclusive_scan"},
    {AlgorithmId::exclusive_scan, "exclusive_scan"},
    {AlgorithmId::unary_transform, "unary_transform"},
    {AlgorithmId::binary_transform, "binary_transform"},
    {AlgorithmId::radix_sort, "radix_sort"},
    {AlgorithmId::segmented_reduce, "segmented_reduce"},
    {AlgorithmId::unique_by_key, "unique_by_key"},
    {AlgorithmId::select, "select"},
    {AlgorithmId::three_way_partition, "three_way_partition"},
    {AlgorithmId::histogram_even, "histogram_even"},
    {AlgorithmId::binary_search, "binary_search"},
    {AlgorithmId::segmented_sort, "segmented_sort"},
    {AlgorithmId::scan_by_key, "scan_by_key"},
    {AlgorithmId::for_each, "for_each"},
};
}  // namespace

std::string_view algorithm_name(AlgorithmId id) noexcept {
  return detail::name_in(kAlgorithmNames, id);
}

std::optional<AlgorithmId> parse_algorithm(std::string_view name) noexcept {
  return detail::value_in(kAlgorithmNames, name);
}

std::string field_text(ScalarType v) { return std::string(name(v)); }
std::string field_text(const ElementType& v) { return describe(v); }
std::string field_text(const Operator& v) { return describe(v); }
std::string field_text(bool v) { return v ? "true" : "false"; }
std::string field_text(std::uint32_t v) { return std::to_string(v); }
std::string field_text(const Iterator& v) { return describe(v); }

namespace {

tl::unexpected<Error> bad_value(const Field& f, std::string_view text, std::string_view accepts) {
  return fail(ErrorCode::invalid_argument, std::string(f.name) + "='" + std::string(text) +
                                               "' is not " + std::string(accepts));
}

bool is_identifier(std::string_view s) {
  if (s.empty() || s.size() > 256) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

}  // namespace

Result<void> parse_field(const Field& f, std::string_view text, std::string_view,
                         ScalarType& out) {
  auto t = parse_scalar_type(text);
  if (!t) return bad_value(f, text, "a type (int8..int64, uint8..uint64, float16, bfloat16, float32, float64, bool, none)");
  out = *t;
  return {};
}

namespace {
// "NAME:SIZE/ALIGN" (a stateful operator's state, a struct's layout): splits off the
// layout into size and alignment. nullopt: no ':' in `text`; false: a malformed layout.
std::optional<bool> split_layout(std::string_view& text, std::uint32_t& size,
                                 std::uint32_t& alignment) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view layout = text.substr(colon + 1);
  const auto slash = layout.find('/');
  auto number = [](std::string_view s, std::uint32_t& v) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc{} && end == s.data() + s.size();
  };
  if (slash == std::string_view::npos || !number(layout.substr(0, slash), size) ||
      !number(layout.substr(slash + 1), alignment))
    return false;
  text = text.substr(0, colon);
  return true;
}
}  // namespace

Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         ElementType& out) {
  const std::string_view full = text;
  std::uint32_t size = 0, alignment = 0;
  const auto layout = split_layout(text, size, alignment);
  if (!layout) {
    ScalarType t{};
    if (auto ok = parse_field(f, text, {}, t); !ok) return ok;
    if (!source.empty())
      return fail(ErrorCode::invalid_argument, std::string(f.name) + ": a definition given for "
                                                   "the scalar type '" + std::string(text) + "'");
    out = t;
    return {};
  }
  if (!*layout || !is_identifier(text))
    return bad_value(f, full, "a type (a struct is written NAME:SIZE/ALIGN, e.g. pair:8/4, "
                              "with its definition)");
  if (source.empty())
    return fail(ErrorCode::invalid_argument, std::string(f.name) + "='" + std::string(full) +
                                                 "': no definition is given for the struct");
  out = ElementType::structure(std::string(text), std::string(source), size, alignment);
  return {};
}

Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         Operator& out) {
  const std::string_view full = text;
  std::uint32_t state_size = 0, state_alignment = 0;
  if (const auto layout = split_layout(text, state_size, state_alignment)) {
    if (!*layout)
      return bad_value(f, full, "an operator (a stateful custom operator's state layout is "
                                "written name:SIZE/ALIGN, e.g. scaled_plus:4/4)");
    if (parse_op_kind(text))
      return bad_value(f, full, "an operator (a well-known operator has no state)");
  }
  if (auto kind = parse_op_kind(text)) {
    if (!source.empty())
      return fail(ErrorCode::invalid_argument, std::string(f.name) + ": source given for the "
                                                   "well-known operator '" + std::string(text) + "'");
    out = Operator::of(*kind);
    return {};
  }
  if (!is_identifier(text))
    return bad_value(f, text, "a well-known operator or a custom operator's name (an identifier)");
  if (source.empty())
    return fail(ErrorCode::invalid_argument,
                std::string(f.name) + "='" + std::string(text) +
                    "' is not a well-known operator and no source is given for it");
  out = Operator::custom(std::string(text), std::string(source), state_size, state_alignment);
  return {};
}

Result<void> parse_field(const Field& f, std::string_view text, std::string_view, bool& out) {
  if (text == "true" || text == "1") {
    out = true;
  } else if (text == "false" || text == "0") {
    out = false;
  } else {
    return bad_value(f, text, "true or false");
  }
  return {};
}

Result<void> parse_field(const Field& f, std::string_view text, std::string_view,
                         std::uint32_t& out) {
  std::uint32_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty())
    return bad_value(f, text, "an unsigned 32-bit number");
  out = v;
  return {};
}

namespace {

// The include directives of a custom operator's source: only <...> headers found on
// NVRTC's include path (the pinned CCCL and the toolkit, both covered by the toolchain
// fingerprint in every key). A quoted, absolute or parent-relative include could read
// a file the key knows nothing of, so an edit of it would leave a stale entry in use.
// Returns why a directive is refused, or nothing.
std::optional<std::string> refused_include(std::string_view source) {
  std::string text(source);
  for (std::size_t p; (p = text.find("\\\n")) != std::string::npos;) text.erase(p, 2);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    auto skip = [&] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    };
    skip();
    if (line.empty() || line.front() != '#') continue;
    line.remove_prefix(1);
    skip();
    const bool include = line.starts_with("include") || line.starts_with("import");
    if (!include) continue;
    line.remove_prefix(line.starts_with("include_next") ? 12 : line.starts_with("include") ? 7 : 6);
    skip();
    const std::size_t close = line.find('>');
    if (line.empty() || line.front() != '<' || close == std::string_view::npos || close < 2)
      return "only #include <header> of the CUDA toolkit or CCCL is allowed (a quoted or macro "
             "include could read a file the cache key does not cover)";
    const std::string_view path = line.substr(1, close - 1);
    if (path.front() == '/' || path.find("..") != std::string_view::npos)
      return "#include <" + std::string(path) +
             "> leaves the include path (absolute or ..): the cache key would not cover it";
  }
  return std::nullopt;
}

}  // namespace

Result<void> validate_operator(std::string_view what, const Operator& op, bool takes_state) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::invalid_argument, std::string(what) + ": " + why);
  };
  if (op.kind == OpKind::custom) {
    if (op.stateful() || op.state_alignment != 0) {
      const std::string layout =
          std::to_string(op.state_size) + "/" + std::to_string(op.state_alignment);
      const std::uint32_t a = op.state_alignment;
      if (a == 0 || a > kMaxOpStateAlignment || (a & (a - 1)) != 0)
        return bad("operator state " + layout + ": the alignment must be a power of two up to " +
                   std::to_string(kMaxOpStateAlignment));
      if (op.state_size == 0 || op.state_size > kMaxOpStateSize || op.state_size % a != 0)
        return bad("operator state " + layout + ": the size must be a multiple of the alignment, "
                   "from 1 to " + std::to_string(kMaxOpStateSize) + " bytes");
      if (!takes_state)
        return fail(ErrorCode::unsupported,
                    std::string(what) + ": operator state is not supported by this algorithm "
                                        "(its host dispatch passes the operator to CUB inside "
                                        "another function object); use a stateless operator");
    }
    if (!is_identifier(op.name))
      return bad("custom operator name '" + op.name + "' is not a C++ identifier");
    if (op.name.rfind("cccl_cache_", 0) == 0)
      return bad("custom operator names may not start with cccl_cache_");
    if (op.source.find_first_not_of(" \t\r\n") == std::string::npos)
      return bad("custom operator source is empty");
    if (op.source.size() > (1u << 20)) return bad("custom operator source exceeds 1 MiB");
    if (auto why = refused_include(op.source)) return bad("custom operator source: " + *why);
    return {};
  }
  if (op_kind_name(op.kind) == "unknown") return bad("unknown operator kind");
  if (!op.name.empty() || !op.source.empty() || op.state_size != 0 || op.state_alignment != 0)
    return bad("a well-known operator takes no name, source or state");
  return {};
}

Result<void> validate_struct(std::string_view what, const ElementType& t) {
  if (!t.is_struct()) return {};
  const StructLayout& l = t.layout;
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::invalid_argument, std::string(what) + ": struct '" + l.name + "': " + why);
  };
  if (!is_identifier(l.name)) return bad("the name is not a C++ identifier");
  if (l.name.rfind("cccl_cache_", 0) == 0) return bad("struct names may not start with cccl_cache_");
  const std::string layout = std::to_string(l.size) + "/" + std::to_string(l.alignment);
  const std::uint32_t a = l.alignment;
  if (a == 0 || a > kMaxStructAlignment || (a & (a - 1)) != 0)
    return bad("layout " + layout + ": the alignment must be a power of two up to " +
               std::to_string(kMaxStructAlignment));
  if (l.size == 0 || l.size > kMaxStructSize || l.size % a != 0)
    return bad("layout " + layout + ": the size must be a multiple of the alignment, from 1 to " +
               std::to_string(kMaxStructSize) + " bytes");
  if (l.definition.find_first_not_of(" \t\r\n") == std::string::npos)
    return bad("the definition is empty");
  if (l.definition.size() > (1u << 20)) return bad("the definition exceeds 1 MiB");
  if (auto why = refused_include(l.definition)) return bad("the definition: " + *why);
  return {};
}

Result<void> validate_stand_in_struct(std::string_view what, std::string_view algorithm,
                                     const ElementType& t) {
  CCCL_CACHE_CHECK(validate_struct(what, t));
  if (!t.is_struct()) return {};
  std::string sizes;
  for (std::uint32_t n : kStandInStructSizes) {
    if (n == t.layout.size) return {};
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(n);
  }
  return fail(ErrorCode::unsupported, std::string(what) + ": struct '" + t.layout.name + "' of " +
                                          std::to_string(t.layout.size) + " bytes: " +
                                          std::string(algorithm) + " takes structs of " + sizes +
                                          " bytes");
}

}  // namespace cccl_cache::algos
