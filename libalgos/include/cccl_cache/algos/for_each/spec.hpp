// for_each specification (cub::DeviceFor::ForEachN: a user's operator called on every
// item, in no particular order): its fields, from which the canonical encoding, key, spec
// text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct ForEach;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::for_each {

// Items are `type` (a scalar or a user's struct). `op` is custom CUDA C++ source naming a
// `__device__ void f(T& x)` (or `f(T x)`, `f(const T& x)`), called once per item: over an
// array it gets the item itself, so it may change it in place; over an iterator it gets
// the item's value. A stateful op (types.hpp) gets its state first, e.g. a device pointer
// to scatter or count into. Its result, if any, is ignored. `offset_type` is the count
// type DeviceFor::ForEachN is called with (its NumItemsT: int32, uint32, int64, uint64).
struct Spec {
  using Algorithm = ForEach;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::for_each;

  ElementType type = ScalarType::float32;
  Operator op;  // custom (required)
  ScalarType offset_type = ScalarType::int64;
  // The items: a T array (pointer, the default), or an iterator of an input kind
  // (spec_fields.hpp kInputIterators) read as T (scalars), or a zip of a struct's fields.
  // The call then takes an IteratorValue (iterator.hpp Input) for it.
  Iterator input;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "op", Need::required}, s.op);
    v(Field{3, "offset"}, s.offset_type);
    v(Field{4, "input"}, s.input);
  }

  // An element type or a valid struct; a valid custom operator (stateful allowed); an
  // offset type; the input as validate_item_iterator checks it. Error: invalid_argument
  // naming the field (unsupported: an iterator kind for_each does not take there).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
// Spec text: "for_each type=float32 op=scale:4/4 offset=int64".
using algos::summary;

}  // namespace cccl_cache::algos::for_each
