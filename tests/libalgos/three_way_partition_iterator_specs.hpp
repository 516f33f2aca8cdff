// three-way partition specs over iterators as its iterator and struct tests (CPU and GPU)
// make them: a predicate on int64 items, a spec from its parts, and struct items read from
// a zip of values and their positions.
#pragma once

#include <utility>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/three_way_partition/spec.hpp"
#include "cccl_cache/algos/types.hpp"
#include "select_iterator_specs.hpp"

namespace test_support {

// x > 1000 over int64 items.
inline cccl_cache::algos::Operator above_1000() {
  return cccl_cache::algos::Operator::custom(
      "big", "__device__ bool big(long long x) { return x > 1000; }");
}

// The spec of `type` partitioned by `first` then identity (nonzero items), with the
// given input and outputs (arrays where left out).
inline cccl_cache::algos::three_way_partition::Spec partition_of(
    cccl_cache::algos::ElementType type, cccl_cache::algos::Operator first,
    cccl_cache::algos::Iterator input, cccl_cache::algos::Iterator first_output = {},
    cccl_cache::algos::Iterator second_output = {},
    cccl_cache::algos::Iterator unselected_output = {}) {
  cccl_cache::algos::three_way_partition::Spec s;
  s.type = std::move(type);
  s.first_op = std::move(first);
  s.input = std::move(input);
  s.first_output = std::move(first_output);
  s.second_output = std::move(second_output);
  s.unselected_output = std::move(unselected_output);
  return s;
}

// Values with their positions (vi64 items read from zip(float32, counting(int64))): the
// positive ones first, then those at even positions, then the rest, into vi64 arrays.
inline cccl_cache::algos::three_way_partition::Spec partition_positions() {
  auto s = partition_of(vi64_type(), positive_value(), values_with_positions());
  s.second_op = cccl_cache::algos::Operator::custom(
      "even_index", "__device__ bool even_index(const vi64& x) { return x.index % 2 == 0; }");
  return s;
}

}  // namespace test_support
