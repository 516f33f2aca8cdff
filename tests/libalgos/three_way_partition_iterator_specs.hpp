// three-way partition specs over iterators as its iterator tests (CPU and GPU) make them:
// a predicate on int64 items and a spec from its parts.
#pragma once

#include <utility>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/three_way_partition/spec.hpp"
#include "cccl_cache/algos/types.hpp"

namespace test_support {

// x > 1000 over int64 items.
inline cccl_cache::algos::Operator above_1000() {
  return cccl_cache::algos::Operator::custom(
      "big", "__device__ bool big(long long x) { return x > 1000; }");
}

// The spec of `type` partitioned by `first` then identity (nonzero items), with the
// given input and outputs (arrays where left out).
inline cccl_cache::algos::three_way_partition::Spec partition_of(
    cccl_cache::algos::ScalarType type, cccl_cache::algos::Operator first,
    cccl_cache::algos::Iterator input, cccl_cache::algos::Iterator first_output = {},
    cccl_cache::algos::Iterator second_output = {},
    cccl_cache::algos::Iterator unselected_output = {}) {
  cccl_cache::algos::three_way_partition::Spec s;
  s.type = type;
  s.first_op = std::move(first);
  s.input = std::move(input);
  s.first_output = std::move(first_output);
  s.second_output = std::move(second_output);
  s.unselected_output = std::move(unselected_output);
  return s;
}

}  // namespace test_support
