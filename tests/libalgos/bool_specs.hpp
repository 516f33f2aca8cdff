// Specs over bool elements that the build and GPU tests share: a comparison's mask, the
// reductions any/all, a running "seen yet", stable partitions by a flag through both
// sorts, the flags kept by select, runs of equal flags and the first true by binary search.
#pragma once

#include "cccl_cache/algos/binary_search/spec.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/radix_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/scan/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include "cccl_cache/algos/transform/spec.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"

namespace test_support::bools {

using cccl_cache::algos::Operator;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::ScalarType;
constexpr ScalarType kBool = ScalarType::boolean;

// float32 a < b -> bool.
inline cccl_cache::algos::transform::Spec<2> less_mask() {
  cccl_cache::algos::transform::Spec<2> s;
  s.in = {ScalarType::float32, ScalarType::float32};
  s.out = kBool;
  s.op = Operator::less();
  return s;
}

// bool: all (logical_and), any (logical_or), and plus (CUB accumulates in int).
inline cccl_cache::algos::reduce::Spec all_of() { return {kBool, Operator::of(OpKind::logical_and)}; }
inline cccl_cache::algos::reduce::Spec any_of() { return {kBool, Operator::of(OpKind::logical_or)}; }
inline cccl_cache::algos::reduce::Spec plus_of() { return {kBool, Operator::plus()}; }

// bool inclusive logical_or: whether a true came at or before each item.
inline cccl_cache::algos::scan::Spec<cccl_cache::algos::AlgorithmId::inclusive_scan> seen_yet() {
  return {kBool, Operator::of(OpKind::logical_or), ScalarType::uint64};
}

// A by-key spec of bool keys with int32 values (the tests' positions).
template <class Spec>
Spec flags_with_positions() {
  Spec s;
  s.key_type = kBool;
  s.value_type = ScalarType::int32;
  return s;
}

// bool keys with int32 values: the falses first, each part in order.
inline cccl_cache::algos::radix_sort::Spec radix_by_flag() {
  return flags_with_positions<cccl_cache::algos::radix_sort::Spec>();
}

// bool keys by greater with int32 values: the trues first, each part in order.
inline cccl_cache::algos::merge_sort::Spec merge_trues_first() {
  auto s = flags_with_positions<cccl_cache::algos::merge_sort::Spec>();
  s.comparator = Operator::greater();
  return s;
}

// bool items kept where true (identity): the count of trues.
inline cccl_cache::algos::select::Spec keep_trues() {
  cccl_cache::algos::select::Spec s;
  s.type = kBool;
  return s;
}

// bool keys with int32 values: each run of equal flags and its first value.
inline cccl_cache::algos::unique_by_key::Spec flag_runs() {
  return flags_with_positions<cccl_cache::algos::unique_by_key::Spec>();
}

// bool lower bounds (int64 indices) in a sorted flag array: a true's is the count of falses.
inline cccl_cache::algos::binary_search::Spec first_true() {
  cccl_cache::algos::binary_search::Spec s;
  s.type = kBool;
  return s;
}

}  // namespace test_support::bools
