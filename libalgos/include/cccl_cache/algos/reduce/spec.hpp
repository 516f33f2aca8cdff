// Reduce specification (cub::DeviceReduce::Reduce over a T array, or an iterator of T,
// into one T): its
// fields, from which the canonical encoding, key, spec text and summary derive
// (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct Reduce;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::reduce {

// Input, initial value and output are `type`. The accumulator is CUB's own
// (`::cuda::std::__accumulator_t<Op, T, T>`, as DeviceReduce::Reduce derives it: int
// for plus over int8, bool for logical_and, the custom function's result), so results
// are CUB's bit for bit. `type` may be a struct (types.hpp ElementType: a custom operator
// returning it, an array input, a size the host dispatch has a stand-in for: 1, 2, 4, 8,
// 12, 16, 24 or 32 bytes), e.g. an argmax over {value, index} pairs.
struct Spec {
  using Algorithm = Reduce;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::reduce;

  ElementType type = ScalarType::float32;
  Operator op = Operator::plus();
  // uint64 (default) or uint32: the offset types DeviceReduce picks (choose_offset_t)
  // for a 64-bit or a 32-bit num_items. The call takes a uint64 count, so uint64 is
  // what DeviceReduce::Reduce uses for it; uint32 is what it uses for an int count
  // (counts above UINT32_MAX are then refused).
  ScalarType offset_type = ScalarType::uint64;
  // The input: a T array (pointer, the default), or an iterator of an input kind
  // (iterator.hpp; spec_fields.hpp kInputIterators) read as T, e.g. a sum of squares as
  // transform(square,float32) over a float32 array. The call then takes an IteratorValue.
  Iterator input;
  // The output: one T (pointer, the default, left out of the encoding), or a transform
  // (op applied to the result, stored as V, e.g. sqrt over a sum of squares: a norm),
  // reverse, permutation or discard iterator (iterator.hpp). The call then takes an
  // IteratorValue (iterator.hpp Output) for it.
  Iterator output;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "op"}, s.op);
    v(Field{3, "offset"}, s.offset_type);
    v(Field{4, "input"}, s.input);
    v(Field{5, "output"}, s.output);
  }

  // An element type, or a valid struct (validate_struct) of a stand-in size with a custom
  // operator and an array input; a binary operator kind that applies to it (bitwise:
  // integers only) or a valid custom one; offset uint32 or uint64; a valid input iterator
  // (validate_iterator) and output iterator (validate_output_iterator). Error: invalid_argument (unsupported: an iterator kind reduce
  // does not take, a stateful transform operator, an iterator over structs).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
using algos::summary;  // spec text

}  // namespace cccl_cache::algos::reduce
