// scan_by_key specs over iterators as its iterator tests (CPU and GPU) make them, and the
// specs both build.
#pragma once

#include <utility>
#include <vector>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/scan_by_key/spec.hpp"
#include "cccl_cache/algos/types.hpp"
#include "iterator_specs.hpp"

namespace test_support {

// The spec of `key` keys and `value` values read and written through the given iterators
// (arrays where left out), equal_to, plus, 8-byte offsets; exclusive where asked.
inline cccl_cache::algos::scan_by_key::Spec scan_by_key_of(
    cccl_cache::algos::ScalarType key, cccl_cache::algos::ScalarType value,
    cccl_cache::algos::Iterator keys_in, cccl_cache::algos::Iterator values_in = {},
    cccl_cache::algos::Iterator values_out = {}, bool exclusive = false) {
  cccl_cache::algos::scan_by_key::Spec s;
  s.key_type = key;
  s.value_type = value;
  s.keys_in = std::move(keys_in);
  s.values_in = std::move(values_in);
  s.values_out = std::move(values_out);
  s.exclusive = exclusive;
  return s;
}

// The iterator tests' specs: each item's rank in its run of int32 keys, from constant
// values (0); runs of i / 2 over a counting input with counting values (1); float values
// gathered by int32 indices over keys read last first, scanned exclusively and stored
// negated as float64 (2); int64 values scanned into a reverse output (3); a constant key,
// one run over the whole input (4).
inline std::vector<cccl_cache::algos::scan_by_key::Spec> scan_by_key_iterator_specs() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::Operator;
  using cccl_cache::algos::OpKind;
  using cccl_cache::algos::ScalarType;
  const auto i32 = ScalarType::int32;
  const auto i64 = ScalarType::int64;
  return {
      scan_by_key_of(i32, i32, {}, Iterator::constant()),
      scan_by_key_of(i64, i64, Iterator::transform(halve(), i64, true), Iterator::counting()),
      scan_by_key_of(i32, ScalarType::float32, Iterator::reverse(),
                     Iterator::permutation(ScalarType::none, i32),
                     Iterator::transform(Operator::of(OpKind::negate), ScalarType::float64),
                     /*exclusive=*/true),
      scan_by_key_of(i32, i64, {}, {}, Iterator::reverse()),
      scan_by_key_of(i32, i32, Iterator::constant()),
  };
}

}  // namespace test_support
