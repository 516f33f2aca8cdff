// Binary search specification (cub::DeviceFind::LowerBound / UpperBound: for each value,
// the index of the first element of a sorted range not ordered before it (lower bound) or
// ordered after it (upper bound)): its fields, from which the canonical encoding, key,
// spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct BinarySearch;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::binary_search {

// The sorted range and the values searched for are both `type` (as in cuda.compute), a
// scalar or a user's struct (with a custom comparator); `comparator` is the order the
// range is sorted in (less, greater, or custom source
// naming a `__device__ bool f(T a, T b)`, a strict weak ordering, or a stateful
// `__device__ bool f(void* state, T a, T b)` whose state each call passes); `upper` picks the
// upper bound (false: the lower bound); `out_type` is the integer type the indices are
// written as (CUB computes them as ptrdiff_t and converts). The range's count is an
// unsigned 64-bit offset and the values' count int64, as DeviceFind derives them from
// 64-bit counts.
struct Spec {
  using Algorithm = BinarySearch;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::binary_search;

  ElementType type = ScalarType::int32;
  ScalarType out_type = ScalarType::int64;  // int32, uint32, int64 or uint64
  Comparator comparator;                    // less by default
  bool upper = false;                       // false: lower_bound; true: upper_bound
  // The values searched for: a T array (pointer, the default), or an iterator of an input
  // kind (spec_fields.hpp kInputIterators) read as T (scalars), or a zip of a struct's
  // fields.
  Iterator values_in;
  // The sorted range: a T array (the default), or an iterator of an input kind read as T,
  // e.g. counting for a search among the integers, transform(f, counting) for where each
  // value falls among f(0), f(1), ... (f monotone in the comparator's order); scalars, or
  // a zip of a struct's fields.
  Iterator data_in;
  // The indices' output: an out-type array (the default), or a reverse, permutation,
  // transform or discard iterator. A call takes an IteratorValue (iterator.hpp Input,
  // Output) for each iterator.
  Iterator output;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "out"}, s.out_type);
    v(Field{3, "compare"}, s.comparator);
    v(Field{4, "upper"}, s.upper);
    v(Field{5, "values_in"}, s.values_in);
    v(Field{6, "output"}, s.output);
    v(Field{7, "data_in"}, s.data_in);
  }

  // An element type or a valid struct; an integer out type of 4 or 8 bytes; less, greater
  // (scalars) or a valid custom comparator; the iterators of the kinds above
  // (validate_item_iterator, validate_output_iterator). Error: invalid_argument naming the field (unsupported: an
  // iterator kind that is not taken there).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

// The lower_bound (upper_bound) spec of `type`, less, int64 indices.
inline Spec lower_bound(ScalarType type) {
  Spec s;
  s.type = type;
  return s;
}
inline Spec upper_bound(ScalarType type) {
  Spec s = lower_bound(type);
  s.upper = true;
  return s;
}

using algos::cache_key;
// Spec text: "binary_search type=int32 out=int64 compare=less upper=false".
using algos::summary;

}  // namespace cccl_cache::algos::binary_search
