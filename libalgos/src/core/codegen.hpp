// Pieces every algorithm's generated source shares: the prelude (the pinned CCCL's
// version check, the CUB kernel header, the element types' headers, the policy probe)
// and the spelling of operators as device function objects. Private to libalgos.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/types.hpp"

namespace cccl_cache::algos::detail {

// The start of a generated source: static_asserts that NVRTC sees the pinned
// CCCL_VERSION (naming both versions) before `cub_kernel_header` (e.g.
// "cub/device/dispatch/kernels/kernel_reduce.cuh") is read, includes cuda_fp16.h /
// cuda_bf16.h where `types` has float16 / bfloat16, and declares the policy probe.
// Opens `#if CCCL_VERSION == <pinned>`: the algorithm's code follows and closes it
// with close_prelude().
std::string prelude(std::string_view cub_kernel_header, std::initializer_list<ScalarType> types);
inline constexpr std::string_view close_prelude() { return "#endif\n"; }

// A custom operator's source, between #line markers so that NVRTC's log names it
// ("operator" line N); empty for a well-known operator.
std::string user_source(const Operator& op);

// The definitions of the struct element types among `types` (each struct once, in
// order), each between #line markers so that NVRTC's log names it ("struct NAME" line
// N), followed by static_asserts that the compiled type has the spec's size and
// alignment and is trivially copyable (CUB moves elements as bytes): a wrong layout
// fails the build, the sizes NVRTC computed named in its log. Empty without structs.
std::string struct_source(std::initializer_list<const ElementType*> types);

// A sort's value type as CUB's kernels take it: cub::NullType for none (keys only).
std::string sort_value_type(const ElementType& value_type);

// Defines `struct <name>` as a device function object for `op`:
//   well-known binary kinds derive from CUB's own function objects
//     (plus -> ::cuda::std::plus<>, minimum -> ::cuda::minimum<>, ...; identity ->
//     ::cuda::std::identity, negate -> ::cuda::std::negate<>), so that CUB takes the
//     same code paths (e.g. warp reductions) as for its own operators;
//   less/greater compare with < (greater swaps the arguments);
//   custom: `return <op.name>(args...);` converted to `result` (empty: auto).
//   a stateful custom op: the struct holds the state (state_member) and calls
//     `<op.name>(<its address>, args...)`.
// `arity` 1 or 2, or more for a custom op (a variadic call: a transform iterator over a
// zip). The struct is empty (one byte as a kernel argument) unless stateful
// (N bytes: the host passes the call's state bytes as that argument, OpArg). `operands`: the
// operands' type where both are one type; for minimum/maximum over float32/float64 the
// base is CCCL's typed function object (::cuda::maximum<float>), specialized to call
// the CUDA math function as nvcc's compile of CCCL does (see codegen.cpp).
std::string operator_struct(std::string_view name, const Operator& op, int arity,
                            std::string_view result = {}, ScalarType operands = ScalarType::none);

// A stateful custom operator's parts of a generated operator struct: the state member, N
// bytes aligned to A held as words of A's width up to 8 bytes ("  alignas(8) unsigned long
// long state[2];\n" for 16/8), and its call's first argument, the address of that copy as
// unsigned char* ("reinterpret_cast<unsigned char*>(const_cast<unsigned long long*>(state)),
// "). Empty for any other operator. As words, the compiler reads the state from the kernel's
// parameters a word at a time, as it reads a functor's members in nvcc's build of CUB;
// as bytes, it loaded and shifted each byte and gave the kernel other code (a reduce over a
// stateful transform of counting(int64) on sm_90: 40 registers and 76 instructions per 8
// items in the main loop, against 56 and 77 in nvcc's own build, whose PTX ours then equals).
std::string state_member(const Operator& op);
std::string state_argument(const Operator& op);

// Like operator_struct, but a well-known binary or unary kind becomes an alias of CUB's
// own function object (`using <name> = ::cuda::std::plus<>;`): CUB's tuning classifies
// operators by exact type (cub::detail::classify_op), so a derived struct would get
// the untuned policy where CUB's own call gets the tuned one.
std::string operator_type(std::string_view name, const Operator& op, int arity,
                          std::string_view result = {}, ScalarType operands = ScalarType::none);

// Whether `op` is a well-known associative (reductions, scans), binary (binary
// transforms: the associative ones, minus, divides, modulus and the six comparisons) or
// unary (identity, negate, logical_not, bit_not) operator kind.
bool is_associative_kind(OpKind kind) noexcept;  // plus .. logical_or
bool is_binary_kind(OpKind kind) noexcept;
bool is_unary_kind(OpKind kind) noexcept;
// Whether a well-known kind applies to `t` (bitwise kinds and modulus: integer types only;
// bool: no negate, bit_not, minus, divides or modulus).
bool kind_applies_to(OpKind kind, ScalarType t) noexcept;

// The operator rule of reductions and scans: plus, multiplies, minimum, maximum, the
// bitwise kinds (integer types only), logical_and/or, or a valid custom operator (minus
// is refused: not associative, CUB's tree order would show in the result). Error
// invalid_argument: "<what>: field 'op': <why>"; a stateful operator as
// validate_operator with `takes_state`.
[[nodiscard]] Result<void> validate_associative_op(std::string_view what, const Operator& op,
                                                   ScalarType type, bool takes_state = false);

// A spec's element-type field: a valid struct (validate_struct) or an integer, float or
// bool type. Error invalid_argument "<what>: field '<field>': must be an integer, float
// or bool type, or a struct" (a bad layout: validate_struct's).
[[nodiscard]] Result<void> validate_element_type(std::string_view what, std::string_view field,
                                                 const ElementType& type);

// One input (`is_output` false) or output of an algorithm over items of `type`: for a
// struct, an array or a zip of its fields (validate_zip_iterator); for a scalar, no zip,
// an input of kInputIterators (validate_iterator), an output of an output kind
// (validate_output_iterator). Errors "<field>: <why>" (unsupported: other iterators over
// struct items).
[[nodiscard]] Result<void> validate_item_iterator(const std::string& field, const ElementType& type,
                                                  const Iterator& it, bool is_output,
                                                  std::uint32_t input_kinds = kInputIterators);
// An algorithm's input and output over items of `type` (validate_item_iterator each).
// Errors "<what>: field 'input'|'output': <why>".
[[nodiscard]] Result<void> validate_item_iterators(std::string_view what, const ElementType& type,
                                                   const Iterator& input, const Iterator& output,
                                                   std::uint32_t input_kinds = kInputIterators);

// The items of a reduction or a scan: a scalar type with an associative operator
// (validate_associative_op, stateful allowed), or a struct of a size the host dispatches
// have stand-ins for (validate_stand_in_struct, `algorithm` named in its refusal) with a
// custom operator; the input and output as validate_item_iterators checks them. Errors
// "<what>: field '<field>': <why>". `input_kinds`: the kinds the input (a zip's components
// among them) may be.
[[nodiscard]] Result<void> validate_items(std::string_view what, std::string_view algorithm,
                                          const ElementType& type, const Operator& op,
                                          const Iterator& input, const Iterator& output,
                                          std::uint32_t input_kinds = kInputIterators);

}  // namespace cccl_cache::algos::detail
