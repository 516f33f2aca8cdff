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
  // none: keys only; a scalar, or a user's struct of 1, 2, 4, 8, 12, 16, 24 or 32 bytes
  // (moved with its key, never read: the host dispatch moves it as bytes of its size)
  ElementType value_type = ScalarType::none;
  bool descending = false;                    // the kernels are compiled for one order

  // Fields 1..3 ("keys", "values", "descending"): call first from the Spec's fields().
  template <class Self, class V>
  static void sort_fields(Self& s, V&& v) {
    v(Field{1, "keys", Need::required}, s.key_type);
    v(Field{2, "values"}, s.value_type);
    v(Field{3, "descending"}, s.descending);
  }

  // A key type (integer or float), a known value type, a struct of a size above or none,
  // and `offset_ok` (the algorithm's rule on its offset type, `offset_rule` in words).
  // Error: invalid_argument "<what> spec: field '...' ..." naming the field (unsupported:
  // a struct of another size).
  Result<void> validate_sort(std::string_view what, bool offset_ok,
                             std::string_view offset_rule) const;

  bool keys_only() const { return !value_type.is_struct() && value_type.scalar == ScalarType::none; }
  // The key's bit width: the default end_bit of a radix sort.
  int key_bits() const { return static_cast<int>(size_of(key_type) * 8); }
  bool operator==(const SortSpecBase&) const = default;
};

}  // namespace cccl_cache::algos
