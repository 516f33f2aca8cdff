// Iterators: names, spec text, validation, the device structs and the call's bytes.
#include "core/iterator.hpp"

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
    {IteratorKind::discard, "discard"},
};
}  // namespace

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
      return kind;
    case IteratorKind::permutation:
      return kind + "(" + v + "," + std::string(name(it.index_type)) + ")";
    case IteratorKind::transform: {
      std::string base;
      if (it.counting_base)
        base = it.type == ScalarType::none ? "counting" : "counting(" + v + ")";
      else if (it.type != ScalarType::none)
        base = v;
      return kind + "(" + describe(it.op) + (base.empty() ? "" : "," + base) + ")";
    }
    default:
      return it.type == ScalarType::none ? kind : kind + "(" + v + ")";
  }
}

Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         Iterator& out) {
  auto bad = [&] {
    return fail(ErrorCode::invalid_argument,
                std::string(f.name) + "='" + std::string(text) +
                    "' is not an iterator (pointer, counting(TYPE), constant(TYPE), "
                    "reverse(TYPE), permutation(TYPE,INDEX), transform(OP[,TYPE]), "
                    "transform(OP,counting(TYPE)) or discard)");
  };
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
    case IteratorKind::permutation:
      if (!type(first, it.type) || !type(rest, it.index_type)) return bad();
      break;
    case IteratorKind::transform: {
      if (first.empty()) return bad();
      CCCL_CACHE_CHECK(parse_field(f, first, source, it.op));
      if (rest == "counting") {
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
Result<void> validate_in_role(std::string_view what, const Iterator& it, ScalarType element,
                              std::uint32_t accepted, bool output) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::invalid_argument, std::string(what) + ": " + why);
  };
  const std::string kind(iterator_kind_name(it.kind));
  if (kind == "unknown") return bad("unknown iterator kind");
  if ((accepted & iterator_bit(it.kind)) == 0)
    return fail(ErrorCode::unsupported, std::string(what) + ": a " + kind + " iterator is not " +
                                            (output ? "an output" : "supported here"));
  if (it.kind == IteratorKind::pointer || it.kind == IteratorKind::discard) {
    if (!(it == Iterator{it.kind})) return bad("a " + kind + " iterator takes no type, index or operator");
    return {};
  }
  if (it.type != ScalarType::none && !is_element_type(it.type))
    return bad(kind + " iterator: unknown value type");
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
  if (counts && is_float(v))
    return bad("a counting iterator counts in an integer type, not " + std::string(name(v)));
  if (transform) {
    const std::string field = std::string(what) + ": transform iterator's operator";
    if (it.op.kind == OpKind::custom) {
      if (it.op.stateful() || it.op.state_alignment != 0)
        return fail(ErrorCode::unsupported, field +
                                                ": operator state is not supported in an "
                                                "iterator; use a stateless operator");
      return validate_operator(field, it.op);
    }
    if (!detail::is_unary_kind(it.op.kind))
      return bad(
          "transform iterator: the operator must be identity, negate, logical_not, "
          "bit_not or custom (unary)");
    // An input's operator reads V; an output's, the algorithm's values.
    const ScalarType operand = output ? element : v;
    if (!detail::kind_applies_to(it.op.kind, operand))
      return bad("transform iterator: " + std::string(op_kind_name(it.op.kind)) +
                 " applies to integer types only, not " + std::string(name(operand)));
    return validate_operator(field, it.op);
  }
  return {};
}
}  // namespace

Result<void> validate_iterator(std::string_view what, const Iterator& it, ScalarType element,
                               std::uint32_t accepted) {
  return validate_in_role(what, it, element, accepted & ~iterator_bit(IteratorKind::discard), false);
}

Result<void> validate_output_iterator(std::string_view what, const Iterator& it, ScalarType element) {
  constexpr std::uint32_t kOutputs =
      iterator_bit(IteratorKind::pointer) | iterator_bit(IteratorKind::reverse) |
      iterator_bit(IteratorKind::permutation) | iterator_bit(IteratorKind::transform) |
      iterator_bit(IteratorKind::discard);
  return validate_in_role(what, it, element, kOutputs, true);
}

namespace detail {

std::string iterator_user_source(const Iterator& it, std::initializer_list<const Operator*> defined) {
  if (it.kind != IteratorKind::transform) return {};
  for (const Operator* op : defined)
    if (*op == it.op) return {};
  return user_source(it.op);
}

namespace {
// A pointer member's position in elements (its address over the element size).
std::string address(const std::string& member, const std::string& type) {
  return "static_cast<difference_type>(reinterpret_cast<::cuda::std::uintptr_t>(" + member +
         ") / sizeof(" + type + "))";
}
}  // namespace

std::string iterator_packing(const Iterator& it) {
  std::string layout;
  switch (it.kind) {
    case IteratorKind::counting:
      layout = "V start@0";
      break;
    case IteratorKind::constant:
      layout = "V value@0";
      break;
    case IteratorKind::reverse:
      layout = "V* end@0 (first + num_items)";
      break;
    case IteratorKind::permutation:
      layout = "V* values@0, I* idx@8";
      break;
    case IteratorKind::transform:
      layout = it.counting_base ? "V start@0" : "V* p@0";
      break;
    case IteratorKind::discard:
      layout = "ptrdiff_t pos@0 (0)";
      break;
    default:
      return {};
  }
  return "// cccl-cache host packing 1: " + layout + "; 16 bytes aligned 16, the rest zero\n";
}

namespace {
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

std::string iterator_struct(std::string_view name, const Iterator& it, ScalarType element) {
  const std::string n(name);
  const std::string a(cuda_name(element));
  const ScalarType vt = iterator_value_type(it, element);
  const std::string v(cuda_name(vt));
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
      parts.at = n + "_op{}(" + parts.at + ")";
      break;
    default:
      break;
  }
  parts.at = "static_cast<" + a + ">(" + parts.at + ")";
  return out + random_access_struct(n, a, a, "", parts);
}

std::string output_iterator_struct(std::string_view name, const Iterator& it, ScalarType element) {
  const std::string n(name);
  const std::string a(cuda_name(element));
  const std::string v(cuda_name(iterator_value_type(it, element)));
  std::string out = iterator_packing(it);
  // What element i's reference stores for a written x (discard: nothing).
  std::string stored = "x";
  IteratorParts parts;
  switch (it.kind) {
    case IteratorKind::reverse:
      parts = {"  " + v + "* end;\n", "reference{end - 1 - i}", "end -= n;", "-" + address("end", v)};
      break;
    case IteratorKind::permutation: {
      const std::string idx(cuda_name(it.index_type));
      parts = {"  " + v + "* values;\n  const " + idx + "* idx;\n", "reference{values + idx[i]}",
               "idx += n;", address("idx", idx)};
      break;
    }
    case IteratorKind::transform:
      out += operator_struct(n + "_op", it.op, 1);
      stored = n + "_op{}(x)";
      parts = {"  " + v + "* p;\n", "reference{p + i}", "p += n;", address("p", v)};
      break;
    default:  // discard
      parts = {"  difference_type pos;\n", "reference{}", "pos += n;", "pos"};
      break;
  }
  const std::string reference_def =
      it.kind == IteratorKind::discard
          ? "  struct reference {\n    __host__ __device__ const reference& operator=(const " + a +
                "&) const { return *this; }\n  };\n"
          : "  struct reference {\n    " + v + "* at;\n    __host__ __device__ const reference& operator=(const " +
                a + "& x) const { *at = static_cast<" + v + ">(" + stored + "); return *this; }\n  };\n";
  return out + random_access_struct(n, a, "reference", reference_def, parts);
}

IteratorTypes iterator_types(std::string& source, const Iterator& input, const Iterator& output,
                             const Operator& op, ScalarType element, const std::string& array) {
  IteratorTypes t{array, array};
  if (!input.is_pointer()) {
    t.in = "cccl_cache_in_t";
    source += iterator_user_source(input, {&op});
    source += iterator_struct(t.in, input, element);
  }
  if (!output.is_pointer()) {
    t.out = "cccl_cache_out_t";
    source += iterator_user_source(output, {&op, &input.op});
    source += output_iterator_struct(t.out, output, element);
  }
  return t;
}

bool pack_iterator(const Iterator& it, ScalarType element, const IteratorValue& value,
                   std::uint64_t num_items, IteratorArg& out) noexcept {
  if (value.kind != it.kind) return false;
  std::memset(out.bytes, 0, sizeof(out.bytes));
  const std::size_t v = size_of(iterator_value_type(it, element));
  auto put_pointer = [&](std::size_t at, const void* p) {
    std::memcpy(out.bytes + at, &p, sizeof p);
  };
  switch (it.kind) {
    case IteratorKind::counting:
    case IteratorKind::constant:
      std::memcpy(out.bytes, value.value, v);
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
        std::memcpy(out.bytes, value.value, v);
      else
        put_pointer(0, value.pointer);
      return true;
    case IteratorKind::discard:
      return true;
    default:
      return false;
  }
}

bool iterator_address(const Iterator& it, ScalarType element, const IteratorValue& value,
                      std::uint64_t num_items, IteratorArg& packed, const void*& address) noexcept {
  if (it.is_pointer()) {
    address = value.pointer;
    return value.kind == IteratorKind::pointer;
  }
  address = packed.bytes;
  return pack_iterator(it, element, value, num_items, packed);
}

}  // namespace detail
}  // namespace cccl_cache::algos
