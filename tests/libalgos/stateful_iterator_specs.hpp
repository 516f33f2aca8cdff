// Specs over transform iterators whose operators are stateful (the state packed into the
// iterator), as the stateful-iterator tests (unit, build, GPU) make them.
#pragma once

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "iterator_specs.hpp"

namespace test_support {

// The affine map's state: a * i + b.
struct Affine {
  long long a, b;
};

// a * i + b over int64, {a, b} the state (16 bytes aligned 8).
inline cccl_cache::algos::Operator affine() {
  return cccl_cache::algos::Operator::custom(
      "affine",
      "__device__ long long affine(void* s, long long i) { const long long* ab = (const long long*)s; "
      "return ab[0] * i + ab[1]; }",
      16, 8);
}

// w[0] * x + w[1] * y over float32 pairs, the weights the state (8 bytes aligned 4).
inline cccl_cache::algos::Operator weighted() {
  return cccl_cache::algos::Operator::custom(
      "weighted",
      "__device__ float weighted(void* s, float x, float y) { const float* w = (const float*)s; "
      "return w[0] * x + w[1] * y; }",
      8, 4);
}

// x * k over float64, k a double the state (8 bytes aligned 8): an output's operator.
inline cccl_cache::algos::Operator scaled() {
  return cccl_cache::algos::Operator::custom(
      "scaled", "__device__ double scaled(void* s, double x) { return x * *(const double*)s; }", 8, 8);
}

// The int64 sum of a * i + b over a counting base: a reduce over transform(affine:16/8,
// counting(int64)).
inline cccl_cache::algos::reduce::Spec affine_sum() {
  using namespace cccl_cache::algos;
  return over<reduce::Spec>(ScalarType::int64, Iterator::transform(affine(), ScalarType::int64, true));
}

// A running weighted sum of pairs: an inclusive float32 scan over transform(weighted:8/4,
// zip(float32, float32)).
inline cccl_cache::algos::scan::InclusiveSpec weighted_running_sum() {
  using namespace cccl_cache::algos;
  return over<scan::InclusiveSpec>(
      ScalarType::float32,
      Iterator::transform_of(weighted(), Iterator::zip({Iterator::array(ScalarType::float32),
                                                        Iterator::array(ScalarType::float32)})));
}

// Running int32 sums stored scaled as float64: an inclusive int32 scan over an array into
// transform(scaled:8/8, float64).
inline cccl_cache::algos::scan::InclusiveSpec scaled_running_sum() {
  using namespace cccl_cache::algos;
  auto s = over<scan::InclusiveSpec>(ScalarType::int32, Iterator{});
  s.output = Iterator::transform(scaled(), ScalarType::float64);
  return s;
}

}  // namespace test_support
