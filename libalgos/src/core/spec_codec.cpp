// The canonical encoding of spec fields (spec_codec.hpp): FieldWriter and FieldReader,
// the bytes every key and stored record's spec are made of.
#include "cccl_cache/algos/core/spec_codec.hpp"

#include <cstring>

namespace cccl_cache::algos {

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
