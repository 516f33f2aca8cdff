// Element types and comparators shared by all algorithm specs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cccl_cache::algos {

// The numbers are part of the canonical spec encoding: never reuse one.
enum class ScalarType : std::uint8_t {
  none = 0,  // "no value type" (keys-only sorts)
  int8 = 1, int16 = 2, int32 = 3, int64 = 4,
  uint8 = 5, uint16 = 6, uint32 = 7, uint64 = 8,
  float32 = 9, float64 = 10,
  float16 = 11, bfloat16 = 12,  // __half, __nv_bfloat16 (cuda_fp16.h, cuda_bf16.h)
  structure = 13,  // a user's struct: ElementType::layout (no name, size or CUDA spelling here)
  boolean = 14,    // bool (one byte, 0 or 1): comparisons' results, masks, any/all
};

// "int32", "float64", "bool", "none", ...
std::string_view name(ScalarType t) noexcept;
// Size in bytes (0 for none).
std::size_t size_of(ScalarType t) noexcept;
// The CUDA C++ spelling used in generated sources ("::cuda::std::int32_t", "float", ...).
std::string_view cuda_name(ScalarType t) noexcept;
// Inverse of name(); also accepts "f32"/"f64"/"i32"/... short forms. nullopt if unknown.
std::optional<ScalarType> parse_scalar_type(std::string_view text) noexcept;

// Whether `t` is a floating-point type (float16, bfloat16, float32, float64).
bool is_float(ScalarType t) noexcept;
// Whether `t` is one of the element types (not none, not an unknown number).
bool is_element_type(ScalarType t) noexcept;
// Whether `t` is an offset type of 4 or 8 bytes: int32, uint32, int64, uint64
// (is_unsigned_offset: uint32, uint64).
bool is_offset_type(ScalarType t) noexcept;
bool is_unsigned_offset(ScalarType t) noexcept;

// Operator kinds: a well-known function object, or `custom` CUDA C++ source. The
// numbers are part of the canonical spec encoding: never reuse one. Each algorithm
// says which kinds it takes (comparators, binary operators, unary operators).
enum class OpKind : std::uint8_t {
  less = 1, greater = 2, custom = 3,
  // binary: ::cuda::std::plus<> etc. (core/operators.hpp spells them)
  plus = 4, multiplies = 5, minimum = 6, maximum = 7,
  bit_and = 8, bit_or = 9, bit_xor = 10, logical_and = 11, logical_or = 12, minus = 13,
  // unary
  identity = 14, negate = 15,
  // equality predicate: ::cuda::std::equal_to<> (unique_by_key; binary transforms)
  equal_to = 16,
  // binary, not associative (binary transforms): ::cuda::std::divides<> etc.
  divides = 17, modulus = 18, not_equal_to = 19, less_equal = 20, greater_equal = 21,
  // unary (unary transforms)
  logical_not = 22, bit_not = 23,
};
using ComparatorKind = OpKind;

// An operator of a spec (a comparator, a reduction or scan operator, ...). For
// `custom`, `source` is CUDA C++ that defines a device function named `name`, e.g.
//   name = "abs_less", source = "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }"
// Well-known kinds take no name or source.
//
// A custom operator may be stateful: `state_size` bytes aligned to `state_alignment` (a
// power of two up to kMaxOpStateAlignment; the size a multiple of it, up to
// kMaxOpStateSize), passed to the kernels by value at each call (OpState). Its device
// function then takes `void* state` first, pointing at the operator's own copy of the
// bytes (read them; writes are not seen by other threads or calls), e.g.
//   __device__ float scaled_plus(void* s, float a, float b) { return a + b * *(float*)s; }
// The layout is part of the spec (its encoding and key); the bytes are not. 0/0:
// stateless (every well-known kind).
struct Operator {
  OpKind kind = OpKind::less;
  std::string name;    // custom only
  std::string source;  // custom only
  std::uint32_t state_size = 0;       // custom only
  std::uint32_t state_alignment = 0;  // custom only, with state_size

  static Operator of(OpKind kind) { return {kind, {}, {}}; }
  static Operator less() { return of(OpKind::less); }
  static Operator greater() { return of(OpKind::greater); }
  static Operator plus() { return of(OpKind::plus); }
  static Operator custom(std::string name, std::string source) {
    return {OpKind::custom, std::move(name), std::move(source)};
  }
  static Operator custom(std::string name, std::string source, std::uint32_t state_size,
                         std::uint32_t state_alignment) {
    return {OpKind::custom, std::move(name), std::move(source), state_size, state_alignment};
  }
  bool stateful() const noexcept { return state_size != 0; }
  bool operator==(const Operator&) const = default;
};
// A strict weak ordering on keys (less, greater or custom).
using Comparator = Operator;

inline constexpr std::uint32_t kMaxOpStateSize = 1024;
inline constexpr std::uint32_t kMaxOpStateAlignment = 16;

// A stateful operator's state at a call: `size` bytes at `data` in host memory, read
// before the call returns (the kernels get a copy). Empty (the default) for a stateless
// operator.
struct OpState {
  const void* data = nullptr;
  std::size_t size = 0;
};

// A user's struct as an element type: `definition` is CUDA C++ defining the trivially
// copyable type `name` (e.g. name = "pair", definition = "struct pair { int k; float v; };"),
// of `size` bytes aligned to `alignment` (a power of two up to kMaxStructAlignment; the
// size a non-zero multiple of it, up to kMaxStructSize). The generated source
// static_asserts both against the compiled type. All four are part of a spec's encoding
// and key.
struct StructLayout {
  std::string name;
  std::string definition;
  std::uint32_t size = 0;
  std::uint32_t alignment = 0;
  bool operator==(const StructLayout&) const = default;
};
inline constexpr std::uint32_t kMaxStructSize = 256;
inline constexpr std::uint32_t kMaxStructAlignment = 16;

// An element type of a spec: a scalar type, or (scalar == ScalarType::structure) a user's
// struct described by `layout`. Converts from ScalarType, so a spec field of this type
// takes `spec.key_type = ScalarType::float32` as before; a scalar one encodes as the
// ScalarType itself (core/spec_codec.hpp).
struct ElementType {
  ScalarType scalar = ScalarType::none;
  StructLayout layout;  // structure only

  ElementType() = default;
  ElementType(ScalarType t) : scalar(t) {}  // NOLINT(google-explicit-constructor): a scalar is an element type
  static ElementType structure(std::string name, std::string definition, std::uint32_t size,
                               std::uint32_t alignment) {
    ElementType t(ScalarType::structure);
    t.layout = {std::move(name), std::move(definition), size, alignment};
    return t;
  }
  bool is_struct() const noexcept { return scalar == ScalarType::structure; }
  bool operator==(const ElementType&) const = default;
};

// Size in bytes: the scalar's, or the struct's declared size.
std::size_t size_of(const ElementType& t) noexcept;
// Its alignment: a struct's layout's; a scalar's size.
std::size_t alignment_of(const ElementType& t) noexcept;
// The CUDA C++ spelling: the scalar's, or the struct's name (a view into `t`).
std::string_view cuda_name(const ElementType& t) noexcept;
// Spec text: the scalar's name, or "NAME:SIZE/ALIGN" for a struct ("pair:8/4").
std::string describe(const ElementType& t);

// The well-known kind's name ("less"), "custom" for custom; "unknown" otherwise.
std::string_view op_kind_name(OpKind kind) noexcept;
// A well-known kind by name (not "custom"); nullopt if none.
std::optional<OpKind> parse_op_kind(std::string_view name) noexcept;

// "less", "greater", or the custom operator's name, followed by ":SIZE/ALIGN" for a
// stateful one ("scaled_plus:4/4"): as spec text writes it.
std::string describe(const Operator& op);

}  // namespace cccl_cache::algos
