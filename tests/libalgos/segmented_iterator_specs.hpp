// Segmented reduce and segmented sort specs over iterators the tests share (unit, build,
// GPU): fixed-size segments whose offsets are computed (begin = 8 i, end = 8 i + 8 from
// one operator over counting iterators), a sum of squares per segment of a counting input
// written last first, segments of growing size (begin = i (i + 1) / 2 computed, ends an
// array) and one-item segments from counting offsets.
#pragma once

#include <utility>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"
#include "cccl_cache/algos/segmented_sort/spec.hpp"

namespace test_support {

// 8 i over int64 (custom, stateless: an offset iterator's operator).
inline cccl_cache::algos::Operator times8() {
  return cccl_cache::algos::Operator::custom(
      "times8", "__device__ long long times8(long long i) { return 8 * i; }");
}

// 8 i: transform(times8, counting(int64)), a fixed-size segment's begin (a call started
// at 0) or end (at 1).
inline cccl_cache::algos::Iterator times8_offsets() {
  return cccl_cache::algos::Iterator::transform(times8(), cccl_cache::algos::ScalarType::int64, true);
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
  using cccl_cache::algos::ScalarType;
  return segmented(ScalarType::float32, ScalarType::int64, {}, {}, times8_offsets(), times8_offsets());
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

// i (i + 1) / 2 over int64: where segment i of sizes 0, 1, 2, ... begins.
inline cccl_cache::algos::Operator triangle() {
  return cccl_cache::algos::Operator::custom(
      "triangle", "__device__ long long triangle(long long i) { return i * (i + 1) / 2; }");
}

// A segmented sort of `keys` (and `values`) over int64 offsets from these iterators.
inline cccl_cache::algos::segmented_sort::Spec segmented_sort_over(
    cccl_cache::algos::ScalarType keys, cccl_cache::algos::ScalarType values, bool descending,
    cccl_cache::algos::Iterator begin, cccl_cache::algos::Iterator end) {
  cccl_cache::algos::segmented_sort::Spec s;
  s.key_type = keys;
  s.value_type = values;
  s.descending = descending;
  s.offset_type = cccl_cache::algos::ScalarType::int64;
  s.begin_offsets = std::move(begin);
  s.end_offsets = std::move(end);
  return s;
}

// float32 keys with int32 values, each row of 8 sorted: begin and end both
// transform(times8, counting(int64)), started at 0 and 1 by the call.
inline cccl_cache::algos::segmented_sort::Spec sorted_rows() {
  using cccl_cache::algos::ScalarType;
  return segmented_sort_over(ScalarType::float32, ScalarType::int32, false, times8_offsets(),
                             times8_offsets());
}

// int32 keys, descending, segment i beginning at i (i + 1) / 2 (transform(triangle,
// counting(int64))) and ending where an int64 array says (up to i + 1 items: small,
// medium and large segments, and empty ones).
inline cccl_cache::algos::segmented_sort::Spec growing_segments() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  return segmented_sort_over(ScalarType::int32, ScalarType::none, true,
                             Iterator::transform(triangle(), ScalarType::int64, true), {});
}

// uint8 keys, segment i = [i, i + 1) from counting(int64) offsets started at 0 and 1:
// enough segments for several partitions (2^31 - 1 segments each) fit in memory.
inline cccl_cache::algos::segmented_sort::Spec unit_sort_segments() {
  using cccl_cache::algos::Iterator;
  using cccl_cache::algos::ScalarType;
  const Iterator count = Iterator::counting(ScalarType::int64);
  return segmented_sort_over(ScalarType::uint8, ScalarType::none, false, count, count);
}

}  // namespace test_support
