// The stateful custom operators the build and GPU tests share, one spec per algorithm
// that takes state; each function reads its state as the comment says.
#pragma once

#include "cccl_cache/algos/binary_search/spec.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/scan/spec.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include "cccl_cache/algos/three_way_partition/spec.hpp"
#include "cccl_cache/algos/transform/spec.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"

namespace test_support {

using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

// uint32 (a + b) % m, m: uint32.
inline cccl_cache::algos::reduce::Spec reduce_plus_mod() {
  return {ScalarType::uint32,
          Operator::custom("plus_mod",
                           "__device__ unsigned plus_mod(void* s, unsigned a, unsigned b) {\n"
                           "  return (a + b) % *static_cast<unsigned*>(s);\n}",
                           4, 4),
          ScalarType::uint64};
}

// int32 x * k[0] + k[1], k: int32[2].
inline cccl_cache::algos::transform::Spec<1> unary_affine() {
  cccl_cache::algos::transform::Spec<1> s;
  s.in = {ScalarType::int32};
  s.out = ScalarType::int32;
  s.op =
      Operator::custom("affine",
                       "__device__ int affine(void* s, int x) {\n"
                       "  const int* k = static_cast<const int*>(s);\n  return x * k[0] + k[1];\n}",
                       8, 4);
  return s;
}

// int32, int32 -> int64 w[0] * a + w[1] * b, w: int64[2] aligned to 16.
inline cccl_cache::algos::transform::Spec<2> binary_weighted() {
  cccl_cache::algos::transform::Spec<2> s;
  s.in = {ScalarType::int32, ScalarType::int32};
  s.out = ScalarType::int64;
  s.op = Operator::custom(
      "weighted",
      "__device__ long weighted(void* s, int a, int b) {\n"
      "  const long* w = static_cast<const long*>(s);\n  return w[0] * a + w[1] * b;\n}",
      16, 16);
  return s;
}

// int32 x > t, t: int32.
inline cccl_cache::algos::select::Spec select_above() {
  return {ScalarType::int32,
          Operator::custom("above",
                           "__device__ bool above(void* s, int x) {\n"
                           "  return x > *static_cast<int*>(s);\n}",
                           4, 4),
          ScalarType::int64, ScalarType::uint64};
}

// uint32 keys and values by key % m, m: uint32.
inline cccl_cache::algos::merge_sort::Spec sort_less_mod() {
  cccl_cache::algos::merge_sort::Spec s;
  s.key_type = ScalarType::uint32;
  s.value_type = ScalarType::uint32;
  s.comparator = Operator::custom(
      "less_mod",
      "__device__ bool less_mod(void* s, unsigned a, unsigned b) {\n"
      "  const unsigned m = *static_cast<unsigned*>(s);\n  return a % m < b % m;\n}",
      4, 4);
  return s;
}

// uint32 (a + b) % m, m: uint32 (the reduce's operator): both scans.
template <cccl_cache::algos::AlgorithmId Id>
cccl_cache::algos::scan::Spec<Id> scan_plus_mod() {
  return {ScalarType::uint32, reduce_plus_mod().op, ScalarType::uint64};
}

// uint32 (a + b) % m per segment, m: uint32; int64 offsets.
inline cccl_cache::algos::segmented_reduce::Spec segmented_plus_mod() {
  return {ScalarType::uint32, reduce_plus_mod().op, ScalarType::int64};
}

// int32 keys equal when a / d == b / d, d: int32; int32 values.
inline cccl_cache::algos::unique_by_key::Spec unique_div_equal() {
  cccl_cache::algos::unique_by_key::Spec s;
  s.key_type = ScalarType::int32;
  s.value_type = ScalarType::int32;
  s.op = Operator::custom("div_equal",
                          "__device__ bool div_equal(void* s, int a, int b) {\n"
                          "  const int d = *static_cast<int*>(s);\n  return a / d == b / d;\n}",
                          4, 4);
  return s;
}

// int32 first: x < lo, lo: int32; second: x > hi[0] && x % hi[1] == 0, hi: int64[2]
// aligned to 8 (two predicates, two states of their own layouts).
inline cccl_cache::algos::three_way_partition::Spec partition_below_above() {
  cccl_cache::algos::three_way_partition::Spec s;
  s.type = ScalarType::int32;
  s.first_op = Operator::custom("below",
                                "__device__ bool below(void* s, int x) {\n"
                                "  return x < *static_cast<int*>(s);\n}",
                                4, 4);
  s.second_op = Operator::custom("above_multiple",
                                 "__device__ bool above_multiple(void* s, int x) {\n"
                                 "  const long long* h = static_cast<const long long*>(s);\n"
                                 "  return x > h[0] && x % h[1] == 0;\n}",
                                 16, 8);
  return s;
}

// int32 lower bounds (int64 indices) in a range ordered by distance from a pivot p: a
// before b when |a - p| < |b - p|, p: int32.
inline cccl_cache::algos::binary_search::Spec search_closer() {
  cccl_cache::algos::binary_search::Spec s;
  s.type = ScalarType::int32;
  s.comparator = Operator::custom("closer",
                                  "__device__ bool closer(void* s, int a, int b) {\n"
                                  "  const int p = *static_cast<int*>(s);\n"
                                  "  const int da = a > p ? a - p : p - a, db = b > p ? b - p : p - b;\n"
                                  "  return da < db;\n}",
                                  4, 4);
  return s;
}

}  // namespace test_support
