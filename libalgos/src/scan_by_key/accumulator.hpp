// The accumulator type cub::DeviceScan::*ScanByKey derives for a spec, computed on the
// host (the generated source names it; the host dispatch sizes its tile state by it).
// Private to libalgos.
#pragma once

#include <cstddef>
#include <string_view>

#include "cccl_cache/algos/scan_by_key/spec.hpp"
#include "cccl_cache/algos/types.hpp"

namespace cccl_cache::algos::scan_by_key::detail {

// CUB's `::cuda::std::__accumulator_t<Op, V, V>`: the decayed result of the operator on
// two values. `boolean`: bool (logical_and, logical_or), `type` is then none.
struct Accumulator {
  ScalarType type = ScalarType::none;
  bool boolean = false;

  bool operator==(const Accumulator&) const = default;
  std::size_t size() const noexcept { return boolean ? 1 : size_of(type); }
};

// plus, multiplies and the bitwise kinds promote integers narrower than int to int (C++'s
// usual arithmetic conversions in ::cuda::std::plus<> etc.); minimum and maximum give the
// common type, V; logical_and/logical_or give bool; a custom operator's function object
// (core/codegen operator_type) returns V. Floats, __half and __nv_bfloat16 stay
// themselves. dispatch.cu checks the integer and float cases against CCCL's own
// __accumulator_t; a generated source whose accumulator is not V asserts it.
constexpr Accumulator accumulator(OpKind op, ScalarType value) noexcept {
  switch (op) {
    case OpKind::logical_and:
    case OpKind::logical_or:
      return {ScalarType::none, true};
    case OpKind::plus:
    case OpKind::multiplies:
    case OpKind::bit_and:
    case OpKind::bit_or:
    case OpKind::bit_xor:
      switch (value) {
        case ScalarType::int8:
        case ScalarType::int16:
        case ScalarType::uint8:
        case ScalarType::uint16:
          return {ScalarType::int32};
        default:
          return {value};
      }
    default:
      return {value};
  }
}

inline Accumulator accumulator(const Spec& spec) noexcept {
  return accumulator(spec.op.kind, spec.value_type);
}

}  // namespace cccl_cache::algos::scan_by_key::detail
