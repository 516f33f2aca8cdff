// The struct element types and specs the struct tests share (CPU builds and GPU runs):
// merge sort with struct keys (keys only, and with struct values) and select over
// struct items, each with a custom operator over the struct.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"

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

// select: payload items whose weight exceeds 0.5.
inline cccl_cache::algos::select::Spec select_heavy() {
  cccl_cache::algos::select::Spec s;
  s.type = payload();
  s.op = Operator::custom("heavy", "__device__ bool heavy(const payload& p) { return p.weight > 0.5; }");
  return s;
}

}  // namespace test_support
