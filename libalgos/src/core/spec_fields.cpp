#include "cccl_cache/algos/core/spec_codec.hpp"
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

namespace detail {

namespace {
void put_u32(std::vector<std::byte>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xffu));
}
std::uint32_t get_u32(std::span<const std::byte> b) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::to_integer<std::uint32_t>(b[static_cast<std::size_t>(i)]);
  return v;
}
void put_text(std::vector<std::byte>& out, std::string_view s) {
  for (char c : s) out.push_back(static_cast<std::byte>(c));
}
}  // namespace

void FieldWriter::header(const Field& f, std::size_t length) {
  out_.push_back(static_cast<std::byte>(f.tag));
  put_u32(out_, static_cast<std::uint32_t>(length));
}
void FieldWriter::put(const Field& f, ScalarType v) {
  header(f, 1);
  out_.push_back(static_cast<std::byte>(v));
}
void FieldWriter::put(const Field& f, const ElementType& v) {
  if (!v.is_struct()) return put(f, v.scalar);
  const StructLayout& l = v.layout;
  header(f, 1 + 4 + 4 + 4 + l.name.size() + l.definition.size());
  out_.push_back(static_cast<std::byte>(ScalarType::structure));
  put_u32(out_, l.size);
  put_u32(out_, l.alignment);
  put_u32(out_, static_cast<std::uint32_t>(l.name.size()));
  put_text(out_, l.name);
  put_text(out_, l.definition);
}
void FieldWriter::put(const Field& f, bool v) {
  if (f.need == Need::added && !v) return;  // the default is not written (spec_codec.hpp)
  header(f, 1);
  out_.push_back(static_cast<std::byte>(v ? 1 : 0));
}
void FieldWriter::put(const Field& f, std::uint32_t v) {
  header(f, 4);
  put_u32(out_, v);
}
// An operator: kind, u32 name length, name, source. A stateful one (either layout
// value non-zero) sets kStateFlag in the kind byte and puts u32 size and u32 alignment
// after the name, so a stateless operator's bytes are those it had before state existed.
constexpr std::uint8_t kStateFlag = 0x80;

namespace {
std::size_t operator_bytes(const Operator& v) {
  const bool state = v.state_size != 0 || v.state_alignment != 0;
  return 1 + 4 + v.name.size() + (state ? 8 : 0) + v.source.size();
}

void put_operator(std::vector<std::byte>& out, const Operator& v) {
  const bool state = v.state_size != 0 || v.state_alignment != 0;
  const auto kind = static_cast<std::uint8_t>(v.kind);
  out.push_back(static_cast<std::byte>(state ? kind | kStateFlag : kind));
  put_u32(out, static_cast<std::uint32_t>(v.name.size()));
  put_text(out, v.name);
  if (state) {
    put_u32(out, v.state_size);
    put_u32(out, v.state_alignment);
  }
  put_text(out, v.source);
}

// The operator `b` holds (put_operator's bytes), or false where they are malformed.
bool get_operator(std::span<const std::byte> b, Operator& v) {
  if (b.size() < 5 || get_u32(b.subspan(1, 4)) > b.size() - 5) return false;
  const std::uint32_t name_size = get_u32(b.subspan(1, 4));
  const auto* chars = reinterpret_cast<const char*>(b.data());
  const auto kind = std::to_integer<std::uint8_t>(b[0]);
  const bool state = (kind & kStateFlag) != 0;
  std::size_t at = 5 + name_size;
  // A flagged operator has a layout (the writer flags no 0/0): one spelling per spec.
  if (state &&
      (b.size() - at < 8 || (get_u32(b.subspan(at, 4)) == 0 && get_u32(b.subspan(at + 4, 4)) == 0)))
    return false;
  v.kind = static_cast<OpKind>(kind & ~kStateFlag);
  v.name.assign(chars + 5, name_size);
  v.state_size = state ? get_u32(b.subspan(at, 4)) : 0;
  v.state_alignment = state ? get_u32(b.subspan(at + 4, 4)) : 0;
  at += state ? 8 : 0;
  v.source.assign(chars + at, b.size() - at);
  return true;
}
}  // namespace

void FieldWriter::put(const Field& f, const Operator& v) {
  header(f, operator_bytes(v));
  put_operator(out_, v);
}

namespace {
// An iterator: kind, V, I, base (one byte each: 1 a transform's counting base, 2 a
// transform's base iterator, else 0), then a transform's base iterator (u32 length and
// its bytes) and operator, a cache_modified iterator's load (one byte), or each of a zip's,
// a nested permutation's or a nested reverse's components as u32 length and its own bytes.
std::size_t iterator_bytes(const Iterator& v) {
  std::size_t n = 4 + (v.kind == IteratorKind::transform ? operator_bytes(v.op) : 0) +
                  (v.kind == IteratorKind::cache_modified ? 1 : 0);
  for (const Iterator& c : v.components) n += 4 + iterator_bytes(c);
  return n;
}

void put_iterator(std::vector<std::byte>& out, const Iterator& v) {
  const bool transform = v.kind == IteratorKind::transform;
  out.push_back(static_cast<std::byte>(v.kind));
  out.push_back(static_cast<std::byte>(v.type));
  out.push_back(static_cast<std::byte>(v.index_type));
  out.push_back(static_cast<std::byte>(v.counting_base ? 1 : transform && v.nested() ? 2 : 0));
  auto put_components = [&] {
    for (const Iterator& c : v.components) {
      put_u32(out, static_cast<std::uint32_t>(iterator_bytes(c)));
      put_iterator(out, c);
    }
  };
  if (transform) {
    put_components();
    put_operator(out, v.op);
    return;
  }
  if (v.kind == IteratorKind::cache_modified) out.push_back(static_cast<std::byte>(v.load));
  put_components();
}

// One component (u32 length and its bytes) from the front of `rest`, which moves past it.
bool get_component(std::span<const std::byte>& rest, Iterator& it, std::size_t depth);

// The iterator `b` holds (put_iterator's bytes), or false where they are malformed.
// Components nest at most kMaxIteratorDepth levels.
bool get_iterator(std::span<const std::byte> b, Iterator& it, std::size_t depth) {
  if (b.size() < 4 || depth >= kMaxIteratorDepth) return false;
  it = Iterator{};
  it.kind = static_cast<IteratorKind>(b[0]);
  it.type = static_cast<ScalarType>(b[1]);
  it.index_type = static_cast<ScalarType>(b[2]);
  const auto base = std::to_integer<std::uint8_t>(b[3]);
  if (base > 2 || (base == 2 && it.kind != IteratorKind::transform)) return false;
  it.counting_base = base == 1;
  auto rest = b.subspan(4);
  if (it.kind == IteratorKind::transform) {
    if (base == 2) {
      Iterator c;
      if (!get_component(rest, c, depth)) return false;
      it.components.push_back(std::move(c));
    }
    return get_operator(rest, it.op);
  }
  if (it.kind == IteratorKind::cache_modified) {
    if (rest.size() != 1) return false;
    it.load = static_cast<CacheLoad>(rest[0]);
    return true;
  }
  if (it.kind != IteratorKind::zip && it.kind != IteratorKind::permutation && it.kind != IteratorKind::reverse)
    return rest.empty();
  while (!rest.empty()) {
    Iterator c;
    if (!get_component(rest, c, depth)) return false;
    it.components.push_back(std::move(c));
  }
  return true;
}

bool get_component(std::span<const std::byte>& rest, Iterator& it, std::size_t depth) {
  if (rest.size() < 4 || get_u32(rest.first(4)) > rest.size() - 4) return false;
  const std::uint32_t length = get_u32(rest.first(4));
  if (!get_iterator(rest.subspan(4, length), it, depth + 1)) return false;
  rest = rest.subspan(4 + length);
  return true;
}
}  // namespace

void FieldWriter::put(const Field& f, const Iterator& v) {
  if (v == Iterator{}) return;  // the default is not written (spec_codec.hpp)
  header(f, iterator_bytes(v));
  put_iterator(out_, v);
}

std::span<const std::byte> FieldReader::next(const Field& f) {
  if (error_) return {};
  auto bad = [&](const std::string& why) {
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': " + why};
    return std::span<const std::byte>{};
  };
  if (rest_.size() < 5) return bad("truncated");
  if (std::to_integer<std::uint8_t>(rest_[0]) != f.tag) return bad("unexpected tag");
  const std::uint32_t length = get_u32(rest_.subspan(1, 4));
  if (length > rest_.size() - 5) return bad("length exceeds the bytes left");
  auto out = rest_.subspan(5, length);
  rest_ = rest_.subspan(5 + length);
  return out;
}

void FieldReader::get(const Field& f, ScalarType& v) {
  auto b = next(f);
  if (error_) return;
  if (b.size() != 1) {
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': bad length"};
    return;
  }
  v = static_cast<ScalarType>(b[0]);
}
void FieldReader::get(const Field& f, ElementType& v) {
  auto b = next(f);
  if (error_) return;
  auto bad = [&] {
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': bad element type"};
  };
  if (b.empty()) return bad();
  const auto scalar = static_cast<ScalarType>(b[0]);
  // One spelling per spec: a struct always has its layout, a scalar never.
  if ((scalar == ScalarType::structure) != (b.size() > 1)) return bad();
  if (scalar != ScalarType::structure) {
    v = scalar;
    return;
  }
  if (b.size() < 13 || get_u32(b.subspan(9, 4)) > b.size() - 13) return bad();
  const std::uint32_t name_size = get_u32(b.subspan(9, 4));
  const auto* chars = reinterpret_cast<const char*>(b.data());
  v = ElementType::structure(std::string(chars + 13, name_size),
                             std::string(chars + 13 + name_size, b.size() - 13 - name_size),
                             get_u32(b.subspan(1, 4)), get_u32(b.subspan(5, 4)));
}
void FieldReader::get(const Field& f, bool& v) {
  if (f.need == Need::added &&
      (error_ || rest_.empty() || std::to_integer<std::uint8_t>(rest_[0]) != f.tag)) {
    v = false;  // not written: the default
    return;
  }
  auto b = next(f);
  if (error_) return;
  if (b.size() != 1 || std::to_integer<std::uint8_t>(b[0]) > 1) {
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': not a bool"};
    return;
  }
  v = b[0] != std::byte{0};
  // The writer leaves a false added field out: one spelling per spec.
  if (f.need == Need::added && !v)
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': a false " +
                                           "added field is never written"};
}
void FieldReader::get(const Field& f, std::uint32_t& v) {
  auto b = next(f);
  if (error_) return;
  if (b.size() != 4) {
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': bad length"};
    return;
  }
  v = get_u32(b);
}
void FieldReader::get(const Field& f, Operator& v) {
  auto b = next(f);
  if (error_) return;
  if (!get_operator(b, v))
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': bad operator"};
}

void FieldReader::get(const Field& f, Iterator& v) {
  if (error_ || rest_.empty() || std::to_integer<std::uint8_t>(rest_[0]) != f.tag) {
    v = Iterator{};  // not written: the default
    return;
  }
  auto b = next(f);
  if (error_) return;
  auto bad = [&](const char* why) {
    error_ = Error{ErrorCode::corrupt, "spec field '" + std::string(f.name) + "': " + why};
  };
  Iterator it;
  if (!get_iterator(b, it, 0)) return bad("bad iterator");
  // The writer leaves a pointer out: one spelling per spec.
  if (it == Iterator{}) return bad("a pointer iterator is never written");
  v = std::move(it);
}

Result<void> FieldReader::finish() const {
  if (error_) return tl::unexpected(*error_);
  if (!rest_.empty()) return fail(ErrorCode::corrupt, "spec fields: trailing bytes");
  return {};
}

}  // namespace detail
}  // namespace cccl_cache::algos
