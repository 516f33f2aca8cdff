// Segmented reduce specs over iterators the tests share (unit, build, GPU): fixed-size
// segments whose offsets are computed (begin = 8 i, end = 8 i + 8 from one operator over
// counting iterators), and a sum of squares per segment of a counting input written last
// first.
#pragma once

#include <utility>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"

namespace test_support {

// 8 i over int64 (custom, stateless: an offset iterator's operator).
inline cccl_cache::algos::Operator times8() {
  return cccl_cache::algos::Operator::custom(
      "times8", "__device__ long long times8(long long i) { return 8 * i; }");
}

// A sum (plus) of `type` items over `offset` offsets, with these arguments.
inline cccl_cache::algos::segmented_reduce::Spec segmented(cccl_cache::algos::ScalarType type,
                                                           cccl_cache::algos::ScalarType offset,
                                                           cccl_cache::algos::Iterator input,
                                                           cccl_cache::algos::Iterator output,
                                                           cccl_cache::algos::Iterator begin,
                                                           cccl_cache::algos::Iterator end) {
  cccl_cache::algos::segmented_reduce::Spec s;
  s.type = type;
  s.offset_type = offset;
  s.input = std::move(input);
  s.output = std::move(output);
  s.begin_offsets = std::move(begin);
  s.end_offsets = std::move(end);
  return s;
}

// float32 sums over segments [8 i, 8 i + 8): begin and end both transform(times8,
// counting(int64)), started at 0 and 1 by the call.
inline cccl_cache::algos::segmented_reduce::Spec fixed_size_sums() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  const Iterator offsets = Iterator::transform(times8(), ScalarType::int64, true);
  return segmented(ScalarType::float32, ScalarType::int64, {}, {}, offsets, offsets);
}

// int64 sums of counting(int64) over arrays of int32 offsets, written last first.
inline cccl_cache::algos::segmented_reduce::Spec counting_sums_reversed() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  return segmented(ScalarType::int64, ScalarType::int32, Iterator::counting(ScalarType::int64),
                   Iterator::reverse(), {}, {});
}

// Segment i = [i, i + 1) of counting(int64): out[i] = init + start + i, from counting
// offsets; enough segments for several launches (2^31 - 1 segments each) fit in memory.
inline cccl_cache::algos::segmented_reduce::Spec unit_segments() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  const Iterator count = Iterator::counting(ScalarType::int64);
  return segmented(ScalarType::int64, ScalarType::int64, count, {}, count, count);
}

}  // namespace test_support
