// three-way partition specification (cub::DevicePartition::If with two predicates: the
// items the first predicate holds for, then those the second holds for, then the rest,
// each part in order, and the two selected counts to device memory): its fields, from
// which the canonical encoding, key, spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct ThreeWayPartition;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::three_way_partition {

// Items are `type` (input and the three outputs alike). `first_op` and `second_op` are
// the predicates: identity (an item is selected where it converts to true: nonzero) or
// custom source naming a `__device__ bool f(T x)`; an item the first selects goes to the
// first part, else one the second selects to the second, else to the unselected part.
// `offset_type` is the count type DevicePartition::If derives from its num_items
// (cub::detail::choose_signed_offset: int32 or int64); `selected_type` the integer type
// of the two-element device array the selected counts are written to.
struct Spec {
  using Algorithm = ThreeWayPartition;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::three_way_partition;

  ElementType type = ScalarType::int32;  // a scalar, or a struct (with custom predicates)
  Operator first_op = Operator::of(OpKind::identity);
  Operator second_op = Operator::of(OpKind::identity);
  ScalarType offset_type = ScalarType::int64;     // int32 or int64
  ScalarType selected_type = ScalarType::uint64;  // int32, uint32, int64 or uint64
  // The input: a T array (pointer, the default), or an iterator of an input kind
  // (spec_fields.hpp kInputIterators) read as T, e.g. counting(int64) to partition indices
  // (scalars), or a zip of a struct's fields.
  Iterator input;
  // Each part's output: a T array (the default), or a reverse, permutation, transform or
  // discard iterator (discard: that part is not written, its size still counted, e.g.
  // unselected_output=discard for the two selected parts alone; scalars), or a zip writing
  // a struct's fields. A call takes an
  // IteratorValue (iterator.hpp Input, Output) for each iterator.
  Iterator first_output;
  Iterator second_output;
  Iterator unselected_output;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "first_op"}, s.first_op);
    v(Field{3, "second_op"}, s.second_op);
    v(Field{4, "offset"}, s.offset_type);
    v(Field{5, "selected"}, s.selected_type);
    v(Field{6, "input"}, s.input);
    v(Field{7, "first_output"}, s.first_output);
    v(Field{8, "second_output"}, s.second_output);
    v(Field{9, "unselected_output"}, s.unselected_output);
  }

  // Whether any of the input and outputs is an iterator: the kernel then takes all four
  // as iterators (an array as an array iterator), the host dispatch being instantiated
  // for all arrays or all iterators.
  bool iterators() const noexcept {
    return !input.is_pointer() || !first_output.is_pointer() || !second_output.is_pointer() ||
           !unselected_output.is_pointer();
  }

  // An element type or a valid struct; identity (scalars) or a valid custom predicate
  // each; offset int32 or int64; an integer selected type of 4 or 8 bytes; the input and
  // outputs of the kinds above (validate_item_iterator). Error: invalid_argument naming the
  // field (unsupported: an iterator kind that is not taken there).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
// Spec text: "three_way_partition type=int32 first_op=identity second_op=identity
// offset=int64 selected=uint64".
using algos::summary;

}  // namespace cccl_cache::algos::three_way_partition
