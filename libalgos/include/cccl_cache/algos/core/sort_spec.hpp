// The fields radix sort and segmented sort share: key type, value type (none: keys only)
// and order, tags 1..3 of their specs. Each algorithm's Spec derives from it and adds
// its offset type (tag 4, with its own default and rule), so both encode as before.
#pragma once

#include <string_view>

#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {

struct SortSpecBase {
  ScalarType key_type = ScalarType::float32;  // any integer or float type
  ScalarType value_type = ScalarType::none;   // none: keys only
  bool descending = false;                    // the kernels are compiled for one order

  // Fields 1..3 ("keys", "values", "descending"): call first from the Spec's fields().
  template <class Self, class V>
  static void sort_fields(Self& s, V&& v) {
    v(Field{1, "keys", Need::required}, s.key_type);
    v(Field{2, "values"}, s.value_type);
    v(Field{3, "descending"}, s.descending);
  }

  // A key type (integer or float) and a known value type or none. Error:
  // invalid_argument "<what> spec: field '...' ..." naming the field.
  Result<void> validate_sort_fields(std::string_view what) const;

  bool keys_only() const { return value_type == ScalarType::none; }
  // The key's bit width: the default end_bit of a radix sort.
  int key_bits() const { return static_cast<int>(size_of(key_type) * 8); }
  bool operator==(const SortSpecBase&) const = default;
};

}  // namespace cccl_cache::algos
