// unique_by_key specification (cub::DeviceSelect::UniqueByKey: of each run of
// consecutive equal keys, the first key and its value are copied out, and the number of
// runs is written to device memory): its fields, from which the canonical encoding, key,
// spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct UniqueByKey;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::unique_by_key {

// Keys are `key_type`, values `value_type` (input and output arrays alike). `op` says
// whether two adjacent keys are equal: equal_to (CUB's default, ::cuda::std::equal_to<>)
// or custom source naming a `__device__ bool f(K a, K b)`. `offset_type` is the kernel's
// offset type as DeviceSelect::UniqueByKey chooses it from its num_items type
// (choose_offset_t: uint32 for 4-byte counts, uint64 for 8-byte ones); `selected_type`
// the integer type of the one-element device array the number selected is written to.
struct Spec {
  using Algorithm = UniqueByKey;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::unique_by_key;

  ScalarType key_type = ScalarType::int32;
  ScalarType value_type = ScalarType::int32;
  Operator op = Operator::of(OpKind::equal_to);
  ScalarType offset_type = ScalarType::uint64;    // uint32 or uint64
  ScalarType selected_type = ScalarType::uint64;  // int32, uint32, int64 or uint64

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "keys", Need::required}, s.key_type);
    v(Field{2, "values", Need::required}, s.value_type);
    v(Field{3, "op"}, s.op);
    v(Field{4, "offset"}, s.offset_type);
    v(Field{5, "selected"}, s.selected_type);
  }

  // Element key and value types; equal_to or a valid custom operator; offset uint32 or
  // uint64; an integer selected type of 4 or 8 bytes. Error: invalid_argument naming the
  // field.
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
// Spec text: "unique_by_key keys=int32 values=int32 op=equal_to offset=uint64 selected=uint64".
using algos::summary;

}  // namespace cccl_cache::algos::unique_by_key
