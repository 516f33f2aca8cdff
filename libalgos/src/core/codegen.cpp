#include "core/codegen.hpp"

#include <algorithm>
#include <vector>

#include "core/jit.hpp"

namespace cccl_cache::algos::detail {

std::string prelude(std::string_view cub_kernel_header, std::initializer_list<ScalarType> types) {
  const std::string pinned = std::to_string(CCCL_CACHE_CCCL_PINNED_VERSION);
  std::string out =
      "#include <cuda/std/__cccl/version.h>\n"
      "#define CCCL_CACHE_STR2(x) #x\n"
      "#define CCCL_CACHE_STR(x) CCCL_CACHE_STR2(x)\n"
      "static_assert(CCCL_VERSION == " + pinned +
      ", \"cccl-cache: NVRTC compiles against CCCL_VERSION \" CCCL_CACHE_STR(CCCL_VERSION) "
      "\" but the host dispatch was compiled with CCCL_VERSION " + pinned +
      " (see $CCCL_CACHE_CCCL_INCLUDE)\");\n"
      "#if CCCL_VERSION == " + pinned + "\n#include <cuda_device_runtime_api.h>\n";
  auto has = [&](ScalarType t) { return std::find(types.begin(), types.end(), t) != types.end(); };
  if (has(ScalarType::float16)) out += "#include <cuda_fp16.h>\n";
  if (has(ScalarType::bfloat16)) out += "#include <cuda_bf16.h>\n";
  out += "#include <" + std::string(cub_kernel_header) + ">\n\n";
  out += kPolicyProbeDecl;
  return out;
}

std::string sort_value_type(const ElementType& value_type) {
  return !value_type.is_struct() && value_type.scalar == ScalarType::none
             ? "cub::NullType"
             : std::string(cuda_name(value_type));
}

std::string user_source(const Operator& op) {
  if (op.kind != OpKind::custom) return {};
  return "\n// user operator " + op.name + "\n#line 1 \"operator\"\n" + op.source +
         "\n#line 1 \"generated\"\n";
}

std::string struct_source(std::initializer_list<const ElementType*> types) {
  std::string out;
  std::vector<const StructLayout*> done;
  for (const ElementType* t : types) {
    if (!t->is_struct()) continue;
    const StructLayout& l = t->layout;
    if (std::find_if(done.begin(), done.end(), [&](auto* d) { return *d == l; }) != done.end())
      continue;
    done.push_back(&l);
    if (out.empty())
      // Instantiated with the type and its compiled and declared values, which NVRTC's
      // log shows ("[with T=pair, Compiled=12ULL, Declared=16ULL]").
      out = "\ntemplate <class T, unsigned long long Compiled, unsigned long long Declared>\n"
            "struct cccl_cache_size_check {\n"
            "  static_assert(Compiled == Declared, \"cccl-cache: sizeof(T) (Compiled) is not "
            "the size the spec declares for T (Declared)\");\n"
            "  static constexpr bool ok = true;\n};\n"
            "template <class T, unsigned long long Compiled, unsigned long long Declared>\n"
            "struct cccl_cache_alignment_check {\n"
            "  static_assert(Compiled == Declared, \"cccl-cache: alignof(T) (Compiled) is not "
            "the alignment the spec declares for T (Declared)\");\n"
            "  static constexpr bool ok = true;\n};\n";
    const std::string& n = l.name;
    out += "\n// user type " + n + "\n#line 1 \"struct " + n + "\"\n" + l.definition +
           "\n#line 1 \"generated\"\n"
           "static_assert(cccl_cache_size_check<" + n + ", sizeof(" + n + "), " +
           std::to_string(l.size) + ">::ok);\n"
           "static_assert(cccl_cache_alignment_check<" + n + ", alignof(" + n + "), " +
           std::to_string(l.alignment) + ">::ok);\n"
           "static_assert(::cuda::std::is_trivially_copyable_v<" + n +
           ">, \"cccl-cache: struct " + n + " must be trivially copyable\");\n";
  }
  return out;
}

namespace {
std::string_view cub_functor(OpKind kind) {
  switch (kind) {
    case OpKind::plus: return "::cuda::std::plus<>";
    case OpKind::multiplies: return "::cuda::std::multiplies<>";
    case OpKind::minimum: return "::cuda::minimum<>";
    case OpKind::maximum: return "::cuda::maximum<>";
    case OpKind::bit_and: return "::cuda::std::bit_and<>";
    case OpKind::bit_or: return "::cuda::std::bit_or<>";
    case OpKind::bit_xor: return "::cuda::std::bit_xor<>";
    case OpKind::logical_and: return "::cuda::std::logical_and<>";
    case OpKind::logical_or: return "::cuda::std::logical_or<>";
    case OpKind::minus: return "::cuda::std::minus<>";
    case OpKind::identity: return "::cuda::std::identity";
    case OpKind::negate: return "::cuda::std::negate<>";
    case OpKind::equal_to: return "::cuda::std::equal_to<>";
    case OpKind::divides: return "::cuda::std::divides<>";
    case OpKind::modulus: return "::cuda::std::modulus<>";
    case OpKind::not_equal_to: return "::cuda::std::not_equal_to<>";
    case OpKind::less_equal: return "::cuda::std::less_equal<>";
    case OpKind::greater_equal: return "::cuda::std::greater_equal<>";
    case OpKind::logical_not: return "::cuda::std::logical_not<>";
    case OpKind::bit_not: return "::cuda::std::bit_not<>";
    default: return {};
  }
}

// CCCL's cuda::minimum/maximum over float and double call cuda::std::fmin/fmax, which
// use __builtin_fmin[f]/__builtin_fmax[f] in nvcc's device compile but, NVRTC having
// neither builtin, a NaN-testing fallback under NVRTC: the same values, more
// instructions and registers (reduce's first pass over float32 on sm_90: 48 registers
// against nvcc's 32, so lower occupancy and another grid than CUB's own call). For those
// operand types the operator is CCCL's typed function object, specialized here to call
// the CUDA math function, i.e. what nvcc compiles (PTX min/max.f32 / .f64). CUB's traits
// (classify_op, is_cuda_maximum_v, ...) match ::cuda::maximum<T> as they match <>.
// Sets `preamble` to the specialization and returns the function object's name, or
// returns CUB's own function object for the kind (empty for less/greater/custom).
std::string functor_for(const Operator& op, ScalarType operands, std::string& preamble) {
  const bool min_max = op.kind == OpKind::minimum || op.kind == OpKind::maximum;
  if (!min_max || (operands != ScalarType::float32 && operands != ScalarType::float64))
    return std::string(cub_functor(op.kind));
  const std::string t{cuda_name(operands)};
  const bool is_max = op.kind == OpKind::maximum;
  const std::string fn = std::string(is_max ? "fmax" : "fmin") + (operands == ScalarType::float32 ? "f" : "");
  const std::string functor = std::string("cuda::") + (is_max ? "maximum" : "minimum") + "<" + t + ">";
  preamble = "template <>\nstruct " + functor + " {\n  __host__ __device__ " + t + " operator()(const " + t +
             "& a, const " + t + "& b) const noexcept { return ::" + fn + "(a, b); }\n};\n";
  return "::" + functor;
}
}  // namespace

namespace {
// The word a state is held in: its alignment's width, at most 8 bytes. As words, the
// compiler reads the state from the kernel's parameters a word at a time; as bytes it
// loads and shifts each byte, and the per-item loop that calls the operator came out
// longer (see state_member in codegen.hpp).
std::uint32_t state_word_bytes(const Operator& op) { return std::min<std::uint32_t>(op.state_alignment, 8); }
std::string state_word(const Operator& op) {
  switch (state_word_bytes(op)) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    default: return "unsigned long long";
  }
}
}  // namespace

std::string state_member(const Operator& op) {
  if (!op.stateful()) return {};
  return "  alignas(" + std::to_string(op.state_alignment) + ") " + state_word(op) + " state[" +
         std::to_string(op.state_size / state_word_bytes(op)) + "];\n";
}

std::string state_argument(const Operator& op) {
  if (!op.stateful()) return {};
  return "reinterpret_cast<unsigned char*>(const_cast<" + state_word(op) + "*>(state)), ";
}

std::string operator_struct(std::string_view name, const Operator& op, int arity,
                            std::string_view result, ScalarType operands) {
  const std::string n(name);
  std::string preamble;
  if (const auto base = functor_for(op, operands, preamble); !base.empty())
    return preamble + "struct " + n + " : " + base + " {};\n";
  const std::string ret = result.empty() ? "auto" : std::string(result);
  if (arity > 2) {  // a custom operator of a zip's components (iterator.hpp)
    return "struct " + n + " {\n" + state_member(op) + "  template <class... T>\n  __device__ " + ret +
           " operator()(const T&... a) const { return " + op.name + "(" + state_argument(op) +
           "a...); }\n};\n";
  }
  const std::string params =
      arity == 1 ? "const T& a" : "const T& a, const U& b";
  const std::string tmpl = arity == 1 ? "template <class T>" : "template <class T, class U>";
  std::string body;
  switch (op.kind) {
    case OpKind::less: body = "return a < b;"; break;
    case OpKind::greater: body = "return b < a;"; break;
    default: {
      const std::string state = state_argument(op);
      const std::string call = op.name + (arity == 1 ? "(" + state + "a)" : "(" + state + "a, b)");
      body = "return " + (result.empty() ? call : "static_cast<" + ret + ">(" + call + ")") + ";";
    }
  }
  return "struct " + n + " {\n" + state_member(op) + "  " + tmpl + "\n  __device__ " + ret +
         " operator()(" + params + ") const { " + body + " }\n};\n";
}

std::string operator_type(std::string_view name, const Operator& op, int arity,
                          std::string_view result, ScalarType operands) {
  std::string preamble;
  if (const auto base = functor_for(op, operands, preamble); !base.empty())
    return preamble + "using " + std::string(name) + " = " + base + ";\n";
  return operator_struct(name, op, arity, result, operands);
}

bool is_associative_kind(OpKind kind) noexcept {
  return kind >= OpKind::plus && kind <= OpKind::logical_or;
}
bool is_binary_kind(OpKind kind) noexcept {
  switch (kind) {
    case OpKind::less:
    case OpKind::greater:
    case OpKind::minus:
    case OpKind::equal_to:
    case OpKind::divides:
    case OpKind::modulus:
    case OpKind::not_equal_to:
    case OpKind::less_equal:
    case OpKind::greater_equal:
      return true;
    default:
      return is_associative_kind(kind);
  }
}
bool is_unary_kind(OpKind kind) noexcept {
  return kind == OpKind::identity || kind == OpKind::negate || kind == OpKind::logical_not ||
         kind == OpKind::bit_not;
}
bool kind_applies_to(OpKind kind, ScalarType t) noexcept {
  if (t == ScalarType::none) return false;
  switch (kind) {
    case OpKind::bit_and:
    case OpKind::bit_or:
    case OpKind::bit_xor:
      return !is_float(t);
    case OpKind::bit_not:
    case OpKind::modulus:
      return !is_float(t) && t != ScalarType::boolean;
    // Arithmetic that leaves {0, 1} or divides by false: NumPy refuses it on bool too.
    case OpKind::negate:
    case OpKind::minus:
    case OpKind::divides:
      return t != ScalarType::boolean;
    default:
      return true;
  }
}

Result<void> validate_associative_op(std::string_view what, const Operator& op, ScalarType type,
                                     bool takes_state) {
  const std::string field = std::string(what) + ": field 'op'";
  if (op.kind == OpKind::custom) return validate_operator(field, op, takes_state);
  if (!is_associative_kind(op.kind))
    return fail(ErrorCode::invalid_argument,
                field + ": must be plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, "
                        "logical_and, logical_or or custom (an associative operator)");
  if (!kind_applies_to(op.kind, type))
    return fail(ErrorCode::invalid_argument, field + ": " + std::string(op_kind_name(op.kind)) +
                                                 " applies to integer types only, not " +
                                                 std::string(name(type)));
  return validate_operator(field, op);
}

Result<void> validate_element_type(std::string_view what, std::string_view field,
                                   const ElementType& type) {
  const std::string w = std::string(what) + ": field '" + std::string(field) + "'";
  if (type.is_struct()) return validate_struct(w, type);
  if (!is_element_type(type.scalar))
    return fail(ErrorCode::invalid_argument, w + ": must be an integer, float or bool type, or a struct");
  return {};
}

Result<void> validate_item_iterator(const std::string& field, const ElementType& type,
                                    const Iterator& it, bool is_output, std::uint32_t input_kinds) {
  if (type.is_struct()) {
    // Struct items are read from and written to arrays, or zipped from (into) arrays and
    // iterators of their fields, or read as a custom transform's results: over a zip (its
    // operator takes the fields' elements) or another input iterator, or over a V array or
    // counting(V) with V named.
    if (it.kind == IteratorKind::zip)
      return validate_zip_iterator(field, it, is_output, is_output ? kInputIterators : input_kinds);
    if (it.kind == IteratorKind::transform && !is_output) {
      if (it.op.kind != OpKind::custom)
        return fail(ErrorCode::invalid_argument,
                    field + ": a transform iterator yielding struct items takes a custom operator returning " +
                        "the struct");
      if (it.nested() ? it.type != ScalarType::none : !is_element_type(it.type))
        return fail(ErrorCode::invalid_argument,
                    field + ": a transform iterator yielding struct items names its operand type " +
                        "(transform(OP,V), transform(OP,counting(V))) or reads an iterator " +
                        "(transform(OP,zip(...))), and no value type of its own");
      return validate_iterator(field, it, ScalarType::structure, input_kinds);
    }
    if (!it.is_pointer())
      return fail(ErrorCode::unsupported,
                  field + ": iterators over struct items (other than a zip of its fields or a transform " +
                      "yielding them)");
    return {};
  }
  if (it.kind == IteratorKind::zip)
    return fail(ErrorCode::invalid_argument,
                field + ": a zip iterator's items are structs: the element type must be a " +
                    "struct whose fields are its components' types");
  if (is_output) return validate_output_iterator(field, it, type.scalar);
  return validate_iterator(field, it, type.scalar, input_kinds);
}

Result<void> validate_item_iterators(std::string_view what, const ElementType& type,
                                     const Iterator& input, const Iterator& output,
                                     std::uint32_t input_kinds) {
  const std::string w(what);
  CCCL_CACHE_CHECK(validate_item_iterator(w + ": field 'input'", type, input, false, input_kinds));
  return validate_item_iterator(w + ": field 'output'", type, output, true);
}

Result<void> validate_items(std::string_view what, std::string_view algorithm, const ElementType& type,
                            const Operator& op, const Iterator& input, const Iterator& output,
                            std::uint32_t input_kinds) {
  const std::string w(what);
  if (type.is_struct()) {
    CCCL_CACHE_CHECK(validate_stand_in_struct(w + ": field 'type'", algorithm, type));
    if (op.kind != OpKind::custom)
      return fail(ErrorCode::invalid_argument,
                  w + ": field 'op': struct items need a custom operator (the well-known ones are for scalars)");
  } else if (!is_element_type(type.scalar)) {
    return fail(ErrorCode::invalid_argument,
                w + ": field 'type': must be an integer, float or bool type, or a struct");
  }
  CCCL_CACHE_CHECK(validate_item_iterators(what, type, input, output, input_kinds));
  return validate_associative_op(what, op, type.scalar, /*takes_state=*/true);
}

}  // namespace cccl_cache::algos::detail
