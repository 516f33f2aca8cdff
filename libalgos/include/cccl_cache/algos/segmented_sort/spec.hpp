// Segmented sort specification (CUB's DeviceSegmentedSort): its fields, from which the
// canonical encoding, key, spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/sort_spec.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct SegmentedSort;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::segmented_sort {

// DeviceSegmentedSort::SortKeys / SortPairs and their Descending forms over begin and end
// offset arrays. CUB's policy follows from the key and value sizes and whether values
// exist (policy_selector_from_types<Key, Value>): all fields of the spec.
// Keys, values and order: SortSpecBase.
struct Spec : SortSpecBase {
  using Algorithm = SegmentedSort;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::segmented_sort;

  // The begin / end offset arrays' element type, which is also CUB's OffsetT (the common
  // value type of the two offset iterators): int32, uint32, int64 or uint64.
  ScalarType offset_type = ScalarType::int32;
  // The begin and end offsets: arrays of offset_type (pointers, the default, left out of
  // the encoding), or iterators of the input kinds read as offset_type (iterator.hpp),
  // e.g. rows of 64 as transform(times64,counting(int64)) begins and the same from 1 as
  // ends: no offset arrays. A spec with an offset iterator is compiled with both offsets
  // iterators (an array as an array iterator); its calls take IteratorValues for them.
  Iterator begin_offsets;
  Iterator end_offsets;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    sort_fields(s, v);
    v(Field{4, "offset"}, s.offset_type);
    v(Field{5, "begin_offsets"}, s.begin_offsets);
    v(Field{6, "end_offsets"}, s.end_offsets);
  }

  // Whether either offset is an iterator.
  bool iterators() const noexcept { return !begin_offsets.is_pointer() || !end_offsets.is_pointer(); }

  // A key type (integer or float), a known value type or none, an integer offset of 4 or
  // 8 bytes, offsets of the input kinds (validate_iterator). Error: invalid_argument
  // naming the field (unsupported: an iterator kind not taken there).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
using algos::summary;  // spec text: "segmented_sort keys=float32 values=none descending=false offset=int32"

}  // namespace cccl_cache::algos::segmented_sort
