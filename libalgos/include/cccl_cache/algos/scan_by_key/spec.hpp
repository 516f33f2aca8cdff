// scan_by_key specification (cub::DeviceScan::InclusiveScanByKey / ExclusiveScanByKey:
// a scan of the values that restarts at every run of consecutive equal keys): its
// fields, from which the canonical encoding, key, spec text and summary derive
// (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct ScanByKey;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::scan_by_key {

// Keys are `key_type`; values and the output `value_type`; each a scalar, or a struct
// (types.hpp ElementType) of 1, 2, 4, 8, 12, 16, 24 or 32 bytes. The accumulator is CUB's
// (`::cuda::std::__accumulator_t<Op, V, V>`, as DeviceScan::*ScanByKey derives it: int
// for values narrower than int under plus, multiplies and the bitwise kinds, bool under
// logical_and/or, V otherwise; a custom operator's result is V, a struct value's the
// struct). `equality` says whether two adjacent keys are equal: equal_to (CUB's default,
// ::cuda::std::equal_to<>; scalar keys) or custom source naming a `__device__ bool f(K a,
// K b)`. `op` is the scan operator on values (custom for struct values). `exclusive`
// picks ExclusiveScanByKey, which takes an initial value at call time. `offset_type` is
// the kernel's offset type as cub::DeviceScan chooses it from its num_items type
// (choose_offset_t: uint32 for 4-byte counts, uint64 for the std::uint64_t count the
// executable takes).
struct Spec {
  using Algorithm = ScanByKey;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::scan_by_key;

  ElementType key_type = ScalarType::int32;    // a scalar, or a struct (custom equality)
  ElementType value_type = ScalarType::int32;  // a scalar, or a struct (custom op)
  Operator equality = Operator::of(OpKind::equal_to);
  Operator op = Operator::plus();
  bool exclusive = false;
  ScalarType offset_type = ScalarType::uint64;  // uint32 or uint64
  // The keys and values read: K and V arrays (pointer, the default), or iterators of the
  // input kinds (spec_fields.hpp kInputIterators) read as K and V, e.g.
  // keys_in=transform(...) for the run each item belongs to, computed from its index.
  Iterator keys_in;
  Iterator values_in;
  // The scan written: a V array (the default), or a reverse, permutation, transform or
  // discard iterator. A call takes an IteratorValue (iterator.hpp Input, Output) for
  // each iterator.
  Iterator values_out;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "keys", Need::required}, s.key_type);
    v(Field{2, "values", Need::required}, s.value_type);
    v(Field{3, "equality"}, s.equality);
    v(Field{4, "op"}, s.op);
    v(Field{5, "exclusive"}, s.exclusive);
    v(Field{6, "offset"}, s.offset_type);
    v(Field{7, "keys_in"}, s.keys_in);
    v(Field{8, "values_in"}, s.values_in);
    v(Field{9, "values_out"}, s.values_out);
  }

  // Whether any input or the output is an iterator: the kernels then take all three as
  // iterators (an array as an array iterator), the host dispatch being instantiated for
  // all arrays or all iterators.
  bool iterators() const noexcept {
    return !keys_in.is_pointer() || !values_in.is_pointer() || !values_out.is_pointer();
  }

  // Element key and value types (structs of the sizes above); equality equal_to (scalar
  // keys) or a valid custom operator; op plus, multiplies, minimum, maximum,
  // logical_and/or, the bitwise kinds (integer values only) or a valid custom operator
  // (struct values: custom only); offset uint32 or uint64; the inputs and output of the
  // kinds above (validate_iterator, validate_output_iterator; struct items: arrays or
  // zips). Error: invalid_argument naming the field (unsupported: an iterator kind not
  // taken there, a struct of another size).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
// Spec text: "scan_by_key keys=int32 values=int32 equality=equal_to op=plus
// exclusive=false offset=uint64".
using algos::summary;

}  // namespace cccl_cache::algos::scan_by_key
