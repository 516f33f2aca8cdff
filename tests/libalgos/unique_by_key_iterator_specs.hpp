// unique_by_key specs over iterators as its iterator tests (CPU and GPU) make them, and
// the specs both build.
#pragma once

#include <utility>
#include <vector>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"
#include "iterator_specs.hpp"

namespace test_support {

// The spec of `key` keys and `value` values with the given inputs and outputs (arrays
// where left out), equal_to, 8-byte offsets and counts.
inline cccl_cache::algos::unique_by_key::Spec unique_of(
    cccl_cache::algos::ScalarType key, cccl_cache::algos::ScalarType value,
    cccl_cache::algos::Iterator keys_in, cccl_cache::algos::Iterator values_in = {},
    cccl_cache::algos::Iterator keys_out = {}, cccl_cache::algos::Iterator values_out = {}) {
  cccl_cache::algos::unique_by_key::Spec s;
  s.key_type = key;
  s.value_type = value;
  s.keys_in = std::move(keys_in);
  s.values_in = std::move(values_in);
  s.keys_out = std::move(keys_out);
  s.values_out = std::move(values_out);
  return s;
}

// The iterator tests' specs: each run's first position from a counting value input (0),
// the keys discarded (1); runs of i / 2 over a counting input written last first (2); a
// reversed float key array with values gathered by a permutation and stored negated as
// float64 (3); a constant key (4).
inline std::vector<cccl_cache::algos::unique_by_key::Spec> unique_iterator_specs() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  const auto i32 = ScalarType::int32;
  const auto i64 = ScalarType::int64;
  return {
      unique_of(i32, i64, {}, Iterator::counting()),
      unique_of(i32, i64, {}, Iterator::counting(), Iterator::discard()),
      unique_of(i64, ScalarType::float32, Iterator::transform(halve(), i64, true), {},
                Iterator::reverse()),
      unique_of(ScalarType::float32, i32, Iterator::reverse(),
                Iterator::permutation(ScalarType::none, ScalarType::int32), {},
                Iterator::transform(cccl_cache::algos::Operator::of(cccl_cache::algos::OpKind::negate),
                                    ScalarType::float64)),
      unique_of(i32, i32, Iterator::constant()),
  };
}

}  // namespace test_support
