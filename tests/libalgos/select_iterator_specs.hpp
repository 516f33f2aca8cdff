// select specs over iterators as the select iterator tests (CPU and GPU) make them: a
// predicate on int64 indices, the {value, index} struct an argwhere keeps and its
// predicate, and a spec from its parts.
#pragma once

#include <cstring>
#include <utility>
#include <vector>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include "cccl_cache/algos/types.hpp"

namespace test_support {

// i % 3 == 1 over int64 indices.
inline cccl_cache::algos::Operator third_index() {
  return cccl_cache::algos::Operator::custom(
      "third", "__device__ bool third(long long i) { return i % 3 == 1; }");
}

// A value with its position (16 bytes), kept where the value is positive.
struct vi64 {
  float value;
  long long index;
};
inline cccl_cache::algos::ElementType vi64_type() {
  return cccl_cache::algos::ElementType::structure(
      "vi64", "struct vi64 { float value; long long index; };", sizeof(vi64), alignof(vi64));
}
inline cccl_cache::algos::Operator positive_value() {
  return cccl_cache::algos::Operator::custom(
      "positive", "__device__ bool positive(const vi64& x) { return x.value > 0; }");
}
// The padding of struct items (bytes no field holds, whatever a kernel or the host left
// there) cleared, so that copies compare by their fields.
template <class O>
inline void clear_padding(std::vector<O>&) {}
inline void clear_padding(std::vector<vi64>& items) {
  for (vi64& x : items) {
    vi64 clean;
    std::memset(&clean, 0, sizeof clean);
    clean.value = x.value;
    clean.index = x.index;
    std::memcpy(&x, &clean, sizeof clean);
  }
}

// zip(float32, counting(int64)): values with their positions, read as vi64.
inline cccl_cache::algos::Iterator values_with_positions() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  return Iterator::zip(
      {Iterator::array(ScalarType::float32), Iterator::counting(ScalarType::int64)});
}

inline cccl_cache::algos::select::Spec select_of(cccl_cache::algos::ElementType type,
                                                 cccl_cache::algos::Operator op,
                                                 cccl_cache::algos::Iterator input,
                                                 cccl_cache::algos::Iterator output = {}) {
  cccl_cache::algos::select::Spec s;
  s.type = std::move(type);
  s.op = std::move(op);
  s.input = std::move(input);
  s.output = std::move(output);
  return s;
}

}  // namespace test_support
