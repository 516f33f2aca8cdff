#include "cccl_cache/algos/types.hpp"

#include <array>
#include <cstdint>
#include <type_traits>

namespace cccl_cache::algos {
namespace {

// The 64-bit integers are spelled as the host's std::int64_t / std::uint64_t (long and
// unsigned long on LP64), not as ::cuda::std::int64_t, which NVRTC defines as long long:
// a caller's arrays are of the host's type, and nvcc's CUB instantiates its kernels with
// it. CUB's device code is not the same for the two spellings: its warp reductions take
// an inline-PTX shuffle path for long long under cuda::std::plus (sm_90, segmented reduce
// of int64 sums: 40 registers against nvcc's 32, i.e. 6 blocks of 256 per SM instead of
// 8).
constexpr std::string_view kInt64 = std::is_same_v<std::int64_t, long> ? "long" : "long long";
constexpr std::string_view kUint64 =
    std::is_same_v<std::uint64_t, unsigned long> ? "unsigned long" : "unsigned long long";

struct TypeInfo {
  ScalarType type;
  std::string_view name, short_name, cuda;
  std::size_t size;
};

constexpr std::array<TypeInfo, 14> kTypes{{
    {ScalarType::none, "none", "none", "void", 0},
    {ScalarType::int8, "int8", "i8", "::cuda::std::int8_t", 1},
    {ScalarType::int16, "int16", "i16", "::cuda::std::int16_t", 2},
    {ScalarType::int32, "int32", "i32", "::cuda::std::int32_t", 4},
    {ScalarType::int64, "int64", "i64", kInt64, 8},
    {ScalarType::uint8, "uint8", "u8", "::cuda::std::uint8_t", 1},
    {ScalarType::uint16, "uint16", "u16", "::cuda::std::uint16_t", 2},
    {ScalarType::uint32, "uint32", "u32", "::cuda::std::uint32_t", 4},
    {ScalarType::uint64, "uint64", "u64", kUint64, 8},
    {ScalarType::float32, "float32", "f32", "float", 4},
    {ScalarType::float64, "float64", "f64", "double", 8},
    {ScalarType::float16, "float16", "f16", "__half", 2},
    {ScalarType::bfloat16, "bfloat16", "bf16", "__nv_bfloat16", 2},
    {ScalarType::boolean, "bool", "bool", "bool", 1},
}};

const TypeInfo* find(ScalarType t) noexcept {
  for (const auto& info : kTypes) {
    if (info.type == t) return &info;
  }
  return nullptr;
}

}  // namespace

std::string_view name(ScalarType t) noexcept {
  const auto* info = find(t);
  return info != nullptr ? info->name : std::string_view("unknown");
}

std::size_t size_of(ScalarType t) noexcept {
  const auto* info = find(t);
  return info != nullptr ? info->size : 0;
}

std::string_view cuda_name(ScalarType t) noexcept {
  const auto* info = find(t);
  return info != nullptr ? info->cuda : std::string_view();
}

bool is_float(ScalarType t) noexcept {
  return t == ScalarType::float16 || t == ScalarType::bfloat16 || t == ScalarType::float32 ||
         t == ScalarType::float64;
}

bool is_element_type(ScalarType t) noexcept { return t != ScalarType::none && find(t) != nullptr; }

bool is_unsigned_offset(ScalarType t) noexcept {
  return t == ScalarType::uint32 || t == ScalarType::uint64;
}

bool is_offset_type(ScalarType t) noexcept {
  return is_unsigned_offset(t) || t == ScalarType::int32 || t == ScalarType::int64;
}

std::optional<ScalarType> parse_scalar_type(std::string_view text) noexcept {
  for (const auto& info : kTypes) {
    if (text == info.name || text == info.short_name) return info.type;
  }
  if (text == "float") return ScalarType::float32;
  if (text == "double") return ScalarType::float64;
  return std::nullopt;
}

namespace {
struct OpInfo {
  OpKind kind;
  std::string_view name;
};
constexpr std::array<OpInfo, 22> kWellKnownOps{{{OpKind::less, "less"},
                                                {OpKind::greater, "greater"},
                                                {OpKind::plus, "plus"},
                                                {OpKind::multiplies, "multiplies"},
                                                {OpKind::minimum, "minimum"},
                                                {OpKind::maximum, "maximum"},
                                                {OpKind::bit_and, "bit_and"},
                                                {OpKind::bit_or, "bit_or"},
                                                {OpKind::bit_xor, "bit_xor"},
                                                {OpKind::logical_and, "logical_and"},
                                                {OpKind::logical_or, "logical_or"},
                                                {OpKind::minus, "minus"},
                                                {OpKind::identity, "identity"},
                                                {OpKind::negate, "negate"},
                                                {OpKind::equal_to, "equal_to"},
                                                {OpKind::divides, "divides"},
                                                {OpKind::modulus, "modulus"},
                                                {OpKind::not_equal_to, "not_equal_to"},
                                                {OpKind::less_equal, "less_equal"},
                                                {OpKind::greater_equal, "greater_equal"},
                                                {OpKind::logical_not, "logical_not"},
                                                {OpKind::bit_not, "bit_not"}}};
}  // namespace

std::string_view op_kind_name(OpKind kind) noexcept {
  if (kind == OpKind::custom) return "custom";
  for (const auto& op : kWellKnownOps) {
    if (op.kind == kind) return op.name;
  }
  return "unknown";
}

std::optional<OpKind> parse_op_kind(std::string_view name) noexcept {
  for (const auto& op : kWellKnownOps) {
    if (op.name == name) return op.kind;
  }
  return std::nullopt;
}

std::string describe(const Operator& op) {
  if (op.kind != OpKind::custom) return std::string(op_kind_name(op.kind));
  if (!op.stateful()) return op.name;
  return op.name + ":" + std::to_string(op.state_size) + "/" + std::to_string(op.state_alignment);
}

std::size_t size_of(const ElementType& t) noexcept {
  return t.is_struct() ? t.layout.size : size_of(t.scalar);
}

std::size_t alignment_of(const ElementType& t) noexcept {
  return t.is_struct() ? t.layout.alignment : size_of(t.scalar);
}

std::string_view cuda_name(const ElementType& t) noexcept {
  return t.is_struct() ? std::string_view(t.layout.name) : cuda_name(t.scalar);
}

std::string describe(const ElementType& t) {
  if (!t.is_struct()) return std::string(name(t.scalar));
  return t.layout.name + ":" + std::to_string(t.layout.size) + "/" +
         std::to_string(t.layout.alignment);
}

}  // namespace cccl_cache::algos
