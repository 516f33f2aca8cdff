// Segmented sort specification (CUB's DeviceSegmentedSort): its fields, from which the
// canonical encoding, key, spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/sort_spec.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
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

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    sort_fields(s, v);
    v(Field{4, "offset"}, s.offset_type);
  }

  // A key type (integer or float), a known value type or none, an integer offset of 4 or
  // 8 bytes. Error: invalid_argument naming the field.
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
using algos::summary;  // spec text: "segmented_sort keys=float32 values=none descending=false offset=int32"

}  // namespace cccl_cache::algos::segmented_sort
