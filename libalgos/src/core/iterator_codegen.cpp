// Iterators' device structs: the CUDA C++ a build compiles for an iterator argument
// (random access, zip, nested, shuffle, cache-modified; input and output), each asserting
// the layout the host packs it in (iterator_layout.hpp).
#include <string>
#include <vector>

#include "core/codegen.hpp"
#include "core/iterator_layout.hpp"

namespace cccl_cache::algos::detail {

namespace {
// The iterator's custom operator (a zip's first component's), or null.
const Operator* custom_operator(const Iterator& it) noexcept {
  for (const Iterator& c : it.components)
    if (const Operator* op = custom_operator(c)) return op;
  return it.kind == IteratorKind::transform && it.op.kind == OpKind::custom ? &it.op : nullptr;
}

// A pointer member's position in elements (its address over the element size).
std::string address(const std::string& member, const std::string& type) {
  return "static_cast<difference_type>(reinterpret_cast<::cuda::std::uintptr_t>(" + member +
         ") / sizeof(" + type + "))";
}

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

}  // namespace cccl_cache::algos::detail
