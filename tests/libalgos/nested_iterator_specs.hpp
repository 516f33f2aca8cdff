// Specs over nested iterators (a transform over an iterator, a permutation over
// iterators, a reverse over an iterator), as the nested-iterator tests (unit, build, GPU) make them.
#pragma once

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "iterator_specs.hpp"

namespace test_support {

// a * b + c over three int64 (a transform over a zip of three).
inline cccl_cache::algos::Operator madd() {
  return cccl_cache::algos::Operator::custom(
      "madd", "__device__ long long madd(long long a, long long b, long long c) { return a * b + c; }");
}

// i * 3 over int64 (an index computed from a count).
inline cccl_cache::algos::Operator times3() {
  return cccl_cache::algos::Operator::custom("times3",
                                             "__device__ long long times3(long long i) { return i * 3; }");
}

// A dot product: the int64 sum of a[i] * b[i] over two int32 arrays (transform(multiplies,
// zip(int32,int32))).
inline cccl_cache::algos::reduce::Spec dot_product() {
  using namespace cccl_cache::algos;
  return over<reduce::Spec>(ScalarType::int64,
                            Iterator::transform_of(Operator::of(OpKind::multiplies),
                                                   Iterator::zip({Iterator::array(ScalarType::int32),
                                                                  Iterator::array(ScalarType::int32)})));
}

// Values in the order a shuffle fixes: an inclusive int64 scan over
// permutation(int64, shuffle(int64)).
inline cccl_cache::algos::scan::InclusiveSpec shuffled_running_sum() {
  using namespace cccl_cache::algos;
  return over<scan::InclusiveSpec>(
      ScalarType::int64,
      Iterator::permutation_of(Iterator::array(ScalarType::int64), Iterator::shuffle(ScalarType::int64)));
}

// Every third count: the int64 sum of counting(int64)[3 * (s + i)] (a permutation of a
// counting iterator by a transform over counting).
inline cccl_cache::algos::reduce::Spec strided_counts() {
  using namespace cccl_cache::algos;
  return over<reduce::Spec>(
      ScalarType::int64,
      Iterator::permutation_of(Iterator::counting(ScalarType::int64),
                               Iterator::transform(times3(), ScalarType::int64, true)));
}

// A running sum of a[i] * b[i] + c with b read last first and c a constant: an exclusive
// int64 scan over transform(madd, zip(int64, reverse(int64), constant(int64))).
inline cccl_cache::algos::scan::ExclusiveSpec running_madd() {
  using namespace cccl_cache::algos;
  return over<scan::ExclusiveSpec>(
      ScalarType::int64,
      Iterator::transform_of(madd(), Iterator::zip({Iterator::array(ScalarType::int64),
                                                    Iterator::reverse(ScalarType::int64),
                                                    Iterator::constant(ScalarType::int64)})));
}

// A running sum scattered to the positions a shuffle fixes: an inclusive int32 scan written
// through permutation(int32, shuffle(int64)).
inline cccl_cache::algos::scan::InclusiveSpec scattered_running_sum() {
  using namespace cccl_cache::algos;
  auto s = over<scan::InclusiveSpec>(ScalarType::int32, Iterator{});
  s.output = Iterator::permutation_of(Iterator::array(ScalarType::int32), Iterator::shuffle(ScalarType::int64));
  return s;
}

// Negated values gathered by index: a float64 reduce over transform(negate,
// permutation(float64, int32)) (a transform over the two-array permutation).
inline cccl_cache::algos::reduce::Spec negated_gather() {
  using namespace cccl_cache::algos;
  return over<reduce::Spec>(ScalarType::float64,
                            Iterator::transform_of(Operator::of(OpKind::negate),
                                                   Iterator::permutation(ScalarType::float64, ScalarType::int32)));
}

// Every third count, last first: an inclusive int64 scan over reverse(transform(times3,
// counting(int64))) (a reverse over an iterator: element i is 3 * (s + n - 1 - i)).
inline cccl_cache::algos::scan::InclusiveSpec reversed_counts() {
  using namespace cccl_cache::algos;
  return over<scan::InclusiveSpec>(ScalarType::int64,
                                   Iterator::reverse_of(Iterator::transform(times3(), ScalarType::int64, true)));
}

// A shuffled gather read last first: an inclusive int64 scan over reverse(permutation(int64,
// shuffle(int64))).
inline cccl_cache::algos::scan::InclusiveSpec reversed_gather() {
  using namespace cccl_cache::algos;
  return over<scan::InclusiveSpec>(ScalarType::int64, Iterator::reverse_of(shuffled_running_sum().input));
}

}  // namespace test_support
