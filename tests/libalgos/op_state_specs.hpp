// The stateful custom operators the build and GPU tests share, one spec per algorithm
// that takes state; each function reads its state as the comment says.
#pragma once

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include "cccl_cache/algos/transform/spec.hpp"

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

}  // namespace test_support
