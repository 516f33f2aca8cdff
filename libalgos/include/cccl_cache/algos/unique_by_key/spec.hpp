// unique_by_key specification (cub::DeviceSelect::UniqueByKey: of each run of
// consecutive equal keys, the first key and its value are copied out, and the number of
// runs is written to device memory): its fields, from which the canonical encoding, key,
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
struct UniqueByKey;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::unique_by_key {

// Keys are `key_type`, values `value_type` (input and output arrays alike; each a scalar
// or a user's struct of any valid layout: the host dispatch never touches items). `op`
// says whether two adjacent keys are equal: equal_to (CUB's default,
// ::cuda::std::equal_to<>; scalar keys) or custom source naming a
// `__device__ bool f(K a, K b)`. `offset_type` is the kernel's
// offset type as DeviceSelect::UniqueByKey chooses it from its num_items type
// (choose_offset_t: uint32 for 4-byte counts, uint64 for 8-byte ones); `selected_type`
// the integer type of the one-element device array the number selected is written to.
struct Spec {
  using Algorithm = UniqueByKey;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::unique_by_key;

  ElementType key_type = ScalarType::int32;    // a scalar, or a struct (custom op)
  ElementType value_type = ScalarType::int32;  // a scalar, or a struct
  Operator op = Operator::of(OpKind::equal_to);
  ScalarType offset_type = ScalarType::uint64;    // uint32 or uint64
  ScalarType selected_type = ScalarType::uint64;  // int32, uint32, int64 or uint64
  // The keys and values read: K and V arrays (pointer, the default), or iterators of the
  // input kinds (spec_fields.hpp kInputIterators) read as K and V, e.g.
  // values_in=counting(int64) for the index of each run's first item (scalars), or zips
  // of a struct's fields.
  Iterator keys_in;
  Iterator values_in;
  // The unique keys and their values written: K and V arrays (the default), or reverse,
  // permutation, transform or discard iterators (discard: not written, e.g.
  // keys_out=discard for the values alone; scalars), or zips writing a struct's fields.
  // A reverse output ends num_items past its
  // array's start (the call's count, not the number selected). A call takes an
  // IteratorValue (iterator.hpp Input, Output) for each iterator.
  Iterator keys_out;
  Iterator values_out;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "keys", Need::required}, s.key_type);
    v(Field{2, "values", Need::required}, s.value_type);
    v(Field{3, "op"}, s.op);
    v(Field{4, "offset"}, s.offset_type);
    v(Field{5, "selected"}, s.selected_type);
    v(Field{6, "keys_in"}, s.keys_in);
    v(Field{7, "values_in"}, s.values_in);
    v(Field{8, "keys_out"}, s.keys_out);
    v(Field{9, "values_out"}, s.values_out);
  }

  // Whether any of the inputs and outputs is an iterator: the kernel then takes all four
  // as iterators (an array as an array iterator), the host dispatch being instantiated
  // for all arrays or all iterators.
  bool iterators() const noexcept {
    return !keys_in.is_pointer() || !values_in.is_pointer() || !keys_out.is_pointer() ||
           !values_out.is_pointer();
  }

  // Element types or valid structs for keys and values; equal_to (scalar keys) or a valid
  // custom operator; offset uint32 or uint64; an integer selected type of 4 or 8 bytes;
  // the inputs and outputs of the kinds above (validate_item_iterator). Error: invalid_argument naming
  // the field (unsupported: an iterator kind that is not taken there).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
// Spec text: "unique_by_key keys=int32 values=int32 op=equal_to offset=uint64 selected=uint64".
using algos::summary;

}  // namespace cccl_cache::algos::unique_by_key
