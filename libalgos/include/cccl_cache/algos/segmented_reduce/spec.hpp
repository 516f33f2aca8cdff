// Segmented reduce specification (cub::DeviceSegmentedReduce::Reduce: segment i of a T
// array, [begin[i], end[i]), reduced into out[i]): its fields, from which the canonical
// encoding, key, spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct SegmentedReduce;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::segmented_reduce {

// Input, initial value and output are `type`; the accumulator is CUB's own
// (`::cuda::std::__accumulator_t<Op, T, T>`, as DeviceSegmentedReduce::Reduce derives
// it), so results are CUB's bit for bit. The begin and end offset arrays hold
// `offset_type`, which is also the kernel's offset type (CUB's
// common_iterator_value_t of the two offset iterators).
struct Spec {
  using Algorithm = SegmentedReduce;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::segmented_reduce;

  ScalarType type = ScalarType::float32;
  Operator op = Operator::plus();
  ScalarType offset_type = ScalarType::int64;  // int32, uint32, int64 or uint64

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "op"}, s.op);
    v(Field{3, "offset"}, s.offset_type);
  }

  // An element type; a reduction operator for it (core/codegen.hpp
  // validate_associative_op); an integer offset type of 4 or 8 bytes. Error:
  // invalid_argument.
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
using algos::summary;  // spec text: "segmented_reduce type=float32 op=plus offset=int64"

}  // namespace cccl_cache::algos::segmented_reduce
