// Radix sort specification (CUB's DeviceRadixSort): its fields, from which the canonical
// encoding, key, spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/sort_spec.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct RadixSort;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::radix_sort {

// Keys (any integer or float type), values (none: keys only) and order: SortSpecBase.
struct Spec : SortSpecBase {
  using Algorithm = RadixSort;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::radix_sort;

  // CUB's DeviceRadixSort offset is choose_offset_t<NumItemsT>: uint32 for 32-bit item
  // counts (the int of its documented calls, and what its benchmarks time), unsigned long
  // long for 64-bit ones. uint32 sorts up to 2^32-1 items; uint64 for more.
  ScalarType offset_type = ScalarType::uint32;
  // The value input: a value array (pointer, the default: left out of the encoding, so
  // specs without it key as before), or counting(V) (V an integer type, the value type
  // by default), an argsort: the values are start + i (as the value type), materialized
  // by one more kernel before CUB's sort (executable.hpp). Spec text: values_in=counting.
  Iterator values_in;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    sort_fields(s, v);
    v(Field{4, "offset"}, s.offset_type);
    v(Field{5, "values_in"}, s.values_in);
  }

  // A key type (integer or float), a known value type or none, offset uint32 or uint64,
  // values_in a pointer or, with a value type, counting over an integer type.
  // Error: invalid_argument naming the field, unsupported (another iterator kind).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
using algos::summary;  // spec text

}  // namespace cccl_cache::algos::radix_sort
