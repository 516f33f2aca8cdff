// Segmented reduce specification (cub::DeviceSegmentedReduce::Reduce: segment i of a T
// array or iterator, [begin[i], end[i]), reduced into out[i]): its fields, from which the canonical
// encoding, key, spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct SegmentedReduce;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::segmented_reduce {

// Input, initial value and output are `type` (a scalar, or a user's struct of 1, 2, 4, 8,
// 12, 16, 24 or 32 bytes with a custom operator returning it); the accumulator is CUB's own
// (`::cuda::std::__accumulator_t<Op, T, T>`, as DeviceSegmentedReduce::Reduce derives
// it), so results are CUB's bit for bit. The begin and end offset arrays hold
// `offset_type`, which is also the kernel's offset type (CUB's
// common_iterator_value_t of the two offset iterators).
struct Spec {
  using Algorithm = SegmentedReduce;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::segmented_reduce;

  ElementType type = ScalarType::float32;
  Operator op = Operator::plus();
  ScalarType offset_type = ScalarType::int64;  // int32, uint32, int64 or uint64
  // The input, the output and the begin and end offsets: arrays (pointers, the default,
  // left out of the encoding), or iterators (iterator.hpp): the input and the offsets
  // of the input kinds (read as T, and as the offset type; the input not reverse, whose
  // end is a length only the offsets know: segments of 8 from
  // transform(times8,counting(int64)) begins and the same from 1 as ends), the output of
  // the output kinds; struct items: arrays or zips of their fields. A spec with any
  // iterator is compiled with every argument an
  // iterator (its arrays as array iterators); its calls take IteratorValues for them.
  Iterator input;
  Iterator output;
  Iterator begin_offsets;
  Iterator end_offsets;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "op"}, s.op);
    v(Field{3, "offset"}, s.offset_type);
    v(Field{4, "input"}, s.input);
    v(Field{5, "output"}, s.output);
    v(Field{6, "begin_offsets"}, s.begin_offsets);
    v(Field{7, "end_offsets"}, s.end_offsets);
  }

  // Whether any argument is an iterator.
  bool iterators() const noexcept {
    return !input.is_pointer() || !output.is_pointer() || !begin_offsets.is_pointer() ||
           !end_offsets.is_pointer();
  }

  // An element type and a reduction operator for it (core/codegen.hpp
  // validate_associative_op), or struct items (validate_items); an integer offset type of
  // 4 or 8 bytes; valid iterators (validate_iterator, validate_output_iterator). Error: invalid_argument (unsupported:
  // an iterator kind that is not taken there).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
using algos::summary;  // spec text: "segmented_reduce type=float32 op=plus offset=int64"

}  // namespace cccl_cache::algos::segmented_reduce
