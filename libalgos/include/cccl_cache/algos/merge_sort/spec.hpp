// Merge sort specification: its fields, from which the canonical encoding, key,
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
struct MergeSort;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::merge_sort {

// The sizes a struct key or value may have: those the host dispatch is instantiated for
// (it moves elements as bytes of their size; src/merge_sort/dispatch.cu).
inline constexpr const auto& kStructSizes = kStandInStructSizes;

struct Spec {
  using Algorithm = MergeSort;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::merge_sort;

  // Scalars, or structs (ElementType::structure) of a size merge_sort::kStructSizes
  // lists; struct keys need a custom comparator.
  ElementType key_type = ScalarType::float32;
  ElementType value_type = ScalarType::none;   // none: keys only
  Comparator comparator;                       // less by default
  ScalarType offset_type = ScalarType::int64;  // int32, uint32, int64 or uint64
  // The keys and values read: arrays (pointer, the default), or iterators of the input
  // kinds (spec_fields.hpp kInputIterators) read as the key and value types
  // (scalar ones), e.g. keys_in=transform(..) to sort a function of the keys. The sorted
  // keys and values go to arrays, which the sort also uses as its buffers. A call takes
  // an IteratorValue (iterator.hpp Input) for each iterator.
  Iterator keys_in;
  Iterator values_in;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "keys", Need::required}, s.key_type);
    v(Field{2, "values"}, s.value_type);
    v(Field{3, "compare"}, s.comparator);
    v(Field{4, "offset"}, s.offset_type);
    v(Field{5, "keys_in"}, s.keys_in);
    v(Field{6, "values_in"}, s.values_in);
  }

  // Key type not none, a known value type (each a scalar or a valid struct of a size in
  // kStructSizes), an integer offset type, a valid comparator (custom for struct keys);
  // input iterators of the kinds above over scalar keys and values (none for values of a
  // keys-only sort). Error: invalid_argument naming the field (unsupported: an iterator
  // kind not taken there, or an iterator over a struct).
  Result<void> validate() const;

  bool keys_only() const { return value_type == ElementType(ScalarType::none); }
  // Whether an input is an iterator: the kernels then read both as iterators (an array as
  // an array iterator), the host dispatch being instantiated for arrays or iterators.
  bool iterators() const noexcept { return !keys_in.is_pointer() || !values_in.is_pointer(); }
  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
using algos::summary;  // spec text

}  // namespace cccl_cache::algos::merge_sort
