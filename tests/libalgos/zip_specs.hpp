// Zip iterators' specs the zip tests share (unit, build, GPU): struct items read from a
// zip of a value array and a counting iterator (an argmax that reports where, also per
// segment), written into a zip of two arrays, and read as a transform's results (over a
// zip, over a counting iterator).
#pragma once

#include <cstdint>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/scan/spec.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"
#include "struct_specs.hpp"

namespace test_support {

// 16 bytes, 8-aligned: a value and its 64-bit index (the host dispatch's 16-byte stand-in).
struct HostArgmax64 {
  float value;
  std::int64_t index;
};
inline cccl_cache::algos::ElementType argmax64_pair() {
  return cccl_cache::algos::ElementType::structure(
      "vi64", "struct vi64 { float value; long long index; };", 16, 8);
}
inline cccl_cache::algos::Operator argmax64_op() {
  return cccl_cache::algos::Operator::custom(
      "argmax64",
      "__device__ vi64 argmax64(vi64 a, vi64 b) {\n"
      "  if (a.value != b.value) return a.value > b.value ? a : b;\n"
      "  return a.index < b.index ? a : b;\n}");
}
inline HostArgmax64 host_argmax64(const HostArgmax64& a, const HostArgmax64& b) {
  if (a.value != b.value) return a.value > b.value ? a : b;
  return a.index < b.index ? a : b;
}

// zip(float32 values, counting(int64)): element i is {values[i], start + i}.
inline cccl_cache::algos::Iterator values_and_positions64() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  return Iterator::zip(
      {Iterator::array(ScalarType::float32), Iterator::counting(ScalarType::int64)});
}

// The argmax of a float32 array with its int64 position (cuda.compute's ZipIterator of
// an array and a CountingIterator).
inline cccl_cache::algos::reduce::Spec zip_argmax64() {
  cccl_cache::algos::reduce::Spec s;
  s.type = argmax64_pair();
  s.op = argmax64_op();
  s.input = values_and_positions64();
  return s;
}

// Per segment, the argmax of a float32 array with its int64 position, into vi64s.
inline cccl_cache::algos::segmented_reduce::Spec zip_segmented_argmax64() {
  cccl_cache::algos::segmented_reduce::Spec s;
  s.type = argmax64_pair();
  s.op = argmax64_op();
  s.input = values_and_positions64();
  return s;
}

// The running argmax of a float32 array with int32 positions (the 8-byte vi), written
// field by field into a float32 and an int32 array.
inline cccl_cache::algos::scan::InclusiveSpec zip_running_argmax() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  cccl_cache::algos::scan::InclusiveSpec s;
  s.type = argmax_pair();
  s.op = reduce_argmax().op;
  s.input =
      Iterator::zip({Iterator::array(ScalarType::float32), Iterator::counting(ScalarType::int32)});
  s.output =
      Iterator::zip({Iterator::array(ScalarType::float32), Iterator::array(ScalarType::int32)});
  return s;
}

// {|v|, i} from a value and its index: a transform's operator yielding vi64 items.
inline cccl_cache::algos::Operator abs_at() {
  return cccl_cache::algos::Operator::custom(
      "abs_at", "__device__ vi64 abs_at(float v, long long i) { return vi64{fabsf(v), i}; }");
}

// The argmax of |x| with its int64 position: a reduce of vi64 items read through
// transform(abs_at, zip(float32, counting(int64))) (a transform over a zip yielding structs).
inline cccl_cache::algos::reduce::Spec transform_argmax64() {
  auto s = zip_argmax64();
  s.input = cccl_cache::algos::Iterator::transform_of(abs_at(), values_and_positions64());
  return s;
}

// {(i * 37) % 1000, i} from an index: a transform's operator yielding vi64 items from a
// count.
inline cccl_cache::algos::Operator scored() {
  return cccl_cache::algos::Operator::custom(
      "scored", "__device__ vi64 scored(long long i) { return vi64{(float)((i * 37) % 1000), i}; }");
}

// A running argmax of computed scores: an inclusive vi64 scan over transform(scored,
// counting(int64)).
inline cccl_cache::algos::scan::InclusiveSpec scored_running_argmax() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  cccl_cache::algos::scan::InclusiveSpec s;
  s.type = argmax64_pair();
  s.op = argmax64_op();
  s.input = Iterator::transform(scored(), ScalarType::int64, true);
  return s;
}

}  // namespace test_support
