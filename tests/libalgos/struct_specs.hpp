// The struct element types and specs the struct tests share (CPU builds and GPU runs):
// merge sort with struct keys (keys only, and with struct values), select and three-way
// partition over struct items, unique_by_key with struct keys and values (from arrays,
// and keys from a zip), binary search of struct items, transforms from and to structs,
// segmented reduce of struct items, reduce of struct items (an argmax, and a 12-byte
// count/min/max) and scans of struct items (a running count/min/max, an exclusive running
// argmax, a seeded running sum of four unsigned ints), each with a custom operator over
// the struct; radix sort and segmented sort of scalar keys with struct values; scans by
// key of struct values (under scalar and struct keys, from arrays and from a zip).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/scan/spec.hpp"
#include "cccl_cache/algos/scan_by_key/spec.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include "cccl_cache/algos/binary_search/spec.hpp"
#include "cccl_cache/algos/radix_sort/spec.hpp"
#include "cccl_cache/algos/segmented_sort/spec.hpp"
#include "cccl_cache/algos/three_way_partition/spec.hpp"
#include "cccl_cache/algos/transform/spec.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"
#include "select_iterator_specs.hpp"

namespace test_support {

using cccl_cache::algos::ElementType;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

// 12 bytes, 4-aligned: ordered by (major, minor); tag rides along.
struct HostKey3 {
  std::int32_t major;
  float minor;
  std::uint32_t tag;
};
inline ElementType key3() {
  return ElementType::structure("key3",
                                "struct key3 { int major; float minor; unsigned tag; };", 12, 4);
}
inline Operator key3_less() {
  return Operator::custom("key3_less",
                          "__device__ bool key3_less(const key3& a, const key3& b) {\n"
                          "  return a.major < b.major || (a.major == b.major && a.minor < b.minor);\n}");
}
inline bool host_key3_less(const HostKey3& a, const HostKey3& b) {
  return a.major < b.major || (a.major == b.major && a.minor < b.minor);
}

// 16 bytes, 8-aligned.
struct HostPayload {
  double weight;
  std::int64_t id;
};
inline ElementType payload() {
  return ElementType::structure("payload", "struct payload { double weight; long long id; };", 16, 8);
}
// n payloads from `seed`: weights in [0, 1) in steps of 0.001, ids 3i - 7.
inline std::vector<HostPayload> random_payloads(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<HostPayload> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = {static_cast<double>(rng() % 1000) / 1000.0, static_cast<std::int64_t>(i) * 3 - 7};
  return v;
}

// merge sort: key3 keys only.
inline cccl_cache::algos::merge_sort::Spec sort_key3() {
  cccl_cache::algos::merge_sort::Spec s;
  s.key_type = key3();
  s.comparator = key3_less();
  return s;
}

// merge sort: key3 keys, payload values.
inline cccl_cache::algos::merge_sort::Spec sort_key3_payload() {
  auto s = sort_key3();
  s.value_type = payload();
  return s;
}

// radix sort: float32 keys with key3 values (12 bytes), ascending.
inline cccl_cache::algos::radix_sort::Spec radix_key3_values() {
  cccl_cache::algos::radix_sort::Spec s;
  s.key_type = ScalarType::float32;
  s.value_type = key3();
  return s;
}

// segmented sort: int32 keys with payload values (16 bytes), descending, int64 offsets.
inline cccl_cache::algos::segmented_sort::Spec segmented_payload_values() {
  cccl_cache::algos::segmented_sort::Spec s;
  s.key_type = ScalarType::int32;
  s.value_type = payload();
  s.descending = true;
  s.offset_type = ScalarType::int64;
  return s;
}

// select: payload items whose weight exceeds 0.5.
inline cccl_cache::algos::select::Spec select_heavy() {
  cccl_cache::algos::select::Spec s;
  s.type = payload();
  s.op = Operator::custom("heavy", "__device__ bool heavy(const payload& p) { return p.weight > 0.5; }");
  return s;
}

// three-way partition: payload items, the heavy ones first, then those of an odd id.
inline cccl_cache::algos::three_way_partition::Spec partition_payload() {
  cccl_cache::algos::three_way_partition::Spec s;
  s.type = payload();
  s.first_op = select_heavy().op;
  s.second_op = Operator::custom("odd_id", "__device__ bool odd_id(const payload& p) { return p.id % 2 != 0; }");
  return s;
}

// unique_by_key: key3 keys equal where (major, minor) are, payload values: the first
// item of each run.
inline bool host_key3_equal(const HostKey3& a, const HostKey3& b) {
  return a.major == b.major && a.minor == b.minor;
}
inline cccl_cache::algos::unique_by_key::Spec unique_key3_payload() {
  cccl_cache::algos::unique_by_key::Spec s;
  s.key_type = key3();
  s.value_type = payload();
  s.op = Operator::custom("key3_equal",
                          "__device__ bool key3_equal(const key3& a, const key3& b) {\n"
                          "  return a.major == b.major && a.minor == b.minor;\n}");
  return s;
}

// unique_by_key: vi64 keys read from zip(float32 values, counting(int64)), equal where
// their values are, int32 values: each run's first value with its position.
inline cccl_cache::algos::unique_by_key::Spec unique_run_starts() {
  cccl_cache::algos::unique_by_key::Spec s;
  s.key_type = vi64_type();
  s.keys_in = values_with_positions();
  s.op = Operator::custom("same_value",
                          "__device__ bool same_value(const vi64& a, const vi64& b) { return a.value == b.value; }");
  return s;
}

// binary search: key3 values among key3 items sorted by key3_less; upper: the upper bound.
inline cccl_cache::algos::binary_search::Spec search_key3(bool upper) {
  cccl_cache::algos::binary_search::Spec s;
  s.type = key3();
  s.comparator = key3_less();
  s.upper = upper;
  return s;
}
inline cccl_cache::algos::binary_search::Spec lower_bound_key3() { return search_key3(false); }
inline cccl_cache::algos::binary_search::Spec upper_bound_key3() { return search_key3(true); }

// Transforms: a payload's weight doubled (struct in, float64 out); a value and an index
// paired into a vi64 (scalars in, struct out); a value times its position, read as vi64
// from zip(float32, counting(int64)) (a zip in, float64 out).
inline cccl_cache::algos::transform::UnarySpec transform_weight() {
  cccl_cache::algos::transform::UnarySpec s;
  s.in = {payload()};
  s.out = ScalarType::float64;
  s.op = Operator::custom("twice_weight",
                          "__device__ double twice_weight(const payload& p) { return 2 * p.weight; }");
  return s;
}
inline cccl_cache::algos::transform::BinarySpec transform_pair() {
  cccl_cache::algos::transform::BinarySpec s;
  s.in = {ScalarType::float32, ScalarType::int64};
  s.out = vi64_type();
  s.op = Operator::custom("pair_up", "__device__ vi64 pair_up(float v, long long i) { return {v, i}; }");
  return s;
}
inline cccl_cache::algos::transform::UnarySpec transform_weighted_positions() {
  cccl_cache::algos::transform::UnarySpec s;
  s.in = {vi64_type()};
  s.inputs = {values_with_positions()};
  s.out = ScalarType::float64;
  s.op = Operator::custom("value_times_index",
                          "__device__ double value_times_index(const vi64& x) { return double(x.value) * x.index; }");
  return s;
}

// 8 bytes, 4-aligned: a value and its index; the argmax keeps the larger value, the
// lower index among equal ones (associative and commutative: any order gives one result).
struct HostArgmax {
  float value;
  std::int32_t index;
};
inline ElementType argmax_pair() {
  return ElementType::structure("vi", "struct vi { float value; int index; };", 8, 4);
}
inline HostArgmax host_argmax(const HostArgmax& a, const HostArgmax& b) {
  if (a.value != b.value) return a.value > b.value ? a : b;
  return a.index < b.index ? a : b;
}
inline cccl_cache::algos::reduce::Spec reduce_argmax() {
  cccl_cache::algos::reduce::Spec s;
  s.type = argmax_pair();
  s.op = Operator::custom("argmax",
                          "__device__ vi argmax(vi a, vi b) {\n"
                          "  if (a.value != b.value) return a.value > b.value ? a : b;\n"
                          "  return a.index < b.index ? a : b;\n}");
  return s;
}

// 12 bytes, 4-aligned: a count with a minimum and a maximum (the host dispatch's
// 12-byte stand-in).
struct HostStats3 {
  std::int32_t count;
  float lo;
  float hi;
};
inline ElementType stats3() {
  return ElementType::structure("stats3", "struct stats3 { int count; float lo; float hi; };", 12, 4);
}
inline HostStats3 host_merge_stats(const HostStats3& a, const HostStats3& b) {
  return {a.count + b.count, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}
inline cccl_cache::algos::reduce::Spec reduce_stats3() {
  cccl_cache::algos::reduce::Spec s;
  s.type = stats3();
  s.offset_type = ScalarType::uint32;
  s.op = Operator::custom("merge_stats",
                          "__device__ stats3 merge_stats(stats3 a, stats3 b) {\n"
                          "  return {a.count + b.count, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};\n}");
  return s;
}

// segmented reduce: an argmax per segment (8-byte vi), a count/min/max per segment (12
// bytes), int64 offsets.
inline cccl_cache::algos::segmented_reduce::Spec segmented_argmax() {
  cccl_cache::algos::segmented_reduce::Spec s;
  s.type = argmax_pair();
  s.op = reduce_argmax().op;
  return s;
}
inline cccl_cache::algos::segmented_reduce::Spec segmented_stats3() {
  cccl_cache::algos::segmented_reduce::Spec s;
  s.type = stats3();
  s.op = reduce_stats3().op;
  return s;
}

// scans: a running count/min/max (12 bytes: CUB's multi-word tile state).
inline cccl_cache::algos::scan::InclusiveSpec scan_stats3() {
  cccl_cache::algos::scan::InclusiveSpec s;
  s.type = stats3();
  s.op = reduce_stats3().op;
  return s;
}

// An exclusive running argmax (8 bytes, 4-aligned: the single-word tile state).
inline cccl_cache::algos::scan::ExclusiveSpec scan_argmax() {
  cccl_cache::algos::scan::ExclusiveSpec s;
  s.type = argmax_pair();
  s.op = reduce_argmax().op;
  return s;
}

// 16 bytes, 4-aligned (the host's 16-byte stand-in is 8-aligned): four sums that wrap.
struct HostQuad {
  std::uint32_t a, b, c, d;
};
inline ElementType quad() {
  return ElementType::structure("quad", "struct quad { unsigned a; unsigned b; unsigned c; unsigned d; };",
                                16, 4);
}
inline HostQuad host_add_quad(const HostQuad& x, const HostQuad& y) {
  return {x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
}
// A running sum of quads seeded with an initial quad (inclusive, init=true).
inline cccl_cache::algos::scan::InclusiveSpec scan_quad_seeded() {
  cccl_cache::algos::scan::InclusiveSpec s;
  s.type = quad();
  s.init = true;
  s.op = Operator::custom("add_quad",
                          "__device__ quad add_quad(quad x, quad y) {\n"
                          "  return {x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};\n}");
  return s;
}

// Scans by key, each restarting at every run of equal keys:
// int32 keys, a running argmax (8-byte vi values: the single-word tile state).
inline cccl_cache::algos::scan_by_key::Spec scan_by_key_argmax() {
  cccl_cache::algos::scan_by_key::Spec s;
  s.value_type = argmax_pair();
  s.op = reduce_argmax().op;
  return s;
}
// key3 keys equal where (major, minor) are, an exclusive running count/min/max (12-byte
// stats3 values: the multi-word tile state), 4-byte offsets.
inline cccl_cache::algos::scan_by_key::Spec scan_by_key_key3_stats3() {
  cccl_cache::algos::scan_by_key::Spec s;
  s.key_type = key3();
  s.equality = unique_key3_payload().op;
  s.value_type = stats3();
  s.op = reduce_stats3().op;
  s.exclusive = true;
  s.offset_type = ScalarType::uint32;
  return s;
}
// int64 keys, a running sum of quads (16 bytes aligned 4: each tile's KeyValuePair<int,
// quad> is 20 bytes).
inline cccl_cache::algos::scan_by_key::Spec scan_by_key_quads() {
  cccl_cache::algos::scan_by_key::Spec s;
  s.key_type = ScalarType::int64;
  s.value_type = quad();
  s.op = scan_quad_seeded().op;
  return s;
}
// int32 keys, a running argmax with its position, the values read from zip(float32,
// counting(int64)) as vi64 (16 bytes aligned 8: a 24-byte KeyValuePair), written to a
// vi64 array.
inline cccl_cache::algos::scan_by_key::Spec scan_by_key_zip_argmax() {
  cccl_cache::algos::scan_by_key::Spec s;
  s.value_type = vi64_type();
  s.values_in = values_with_positions();
  s.op = Operator::custom("argmax64",
                          "__device__ vi64 argmax64(vi64 a, vi64 b) {\n"
                          "  if (a.value != b.value) return a.value > b.value ? a : b;\n"
                          "  return a.index < b.index ? a : b;\n}");
  return s;
}

}  // namespace test_support
