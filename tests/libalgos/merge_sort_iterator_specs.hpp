// Merge sort specs over input iterators as its iterator tests (CPU and GPU) make them,
// and the specs both build.
#pragma once

#include <utility>
#include <vector>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/types.hpp"

namespace test_support {

// The spec of `key` keys and `value` values (none: keys only) read through the given
// inputs (arrays where left out), compared by `compare`, with int64 offsets.
inline cccl_cache::algos::merge_sort::Spec sort_of(
    cccl_cache::algos::ScalarType key, cccl_cache::algos::ScalarType value,
    cccl_cache::algos::Iterator keys_in, cccl_cache::algos::Iterator values_in = {},
    cccl_cache::algos::OpKind compare = cccl_cache::algos::OpKind::less) {
  cccl_cache::algos::merge_sort::Spec s;
  s.key_type = key;
  s.value_type = value;
  s.comparator = cccl_cache::algos::Operator::of(compare);
  s.keys_in = std::move(keys_in);
  s.values_in = std::move(values_in);
  return s;
}

// The iterator tests' specs: an argsort, float keys with a counting value input (0); a
// sort of int64 keys read negated (a transform over the array), int32 values (1); int32
// keys read last first, keys only, descending (2); a shuffle of 0..n-1 as int64 keys
// with counting values, whose sorted values are the shuffle's inverse (3); float keys
// gathered by int32 indices (a permutation) with constant values (4).
inline std::vector<cccl_cache::algos::merge_sort::Spec> merge_sort_iterator_specs() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  const auto i32 = ScalarType::int32;
  const auto i64 = ScalarType::int64;
  const auto f32 = ScalarType::float32;
  return {
      sort_of(f32, i64, {}, Iterator::counting()),
      sort_of(i64, i32,
              Iterator::transform(cccl_cache::algos::Operator::of(cccl_cache::algos::OpKind::negate))),
      sort_of(i32, ScalarType::none, Iterator::reverse(), {}, cccl_cache::algos::OpKind::greater),
      sort_of(i64, i64, Iterator::shuffle(), Iterator::counting()),
      sort_of(f32, i32, Iterator::permutation(ScalarType::none, i32), Iterator::constant()),
  };
}

}  // namespace test_support
