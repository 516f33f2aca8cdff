// Argmax structs {value, index} and their argmax (the greater value, the lower index among
// equal ones: associative and commutative, so any order of CUB's gives the same bits), for
// nvcc's CUB and as our specs' source: the struct benchmarks share them. vi: 8 bytes
// {float; int} (CUB's single-word tile states); vl: 16 bytes {double; long long} (the
// multi-word ones).
#pragma once

#include <cstdint>

namespace bench {

struct vi {
  float value;
  int index;
};
struct vl {
  double value;
  long long index;
};
struct ArgMax {
  template <class T>
  __device__ T operator()(const T& a, const T& b) const {
    return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
};
inline const char* kViDef = "struct vi { float value; int index; };";
inline const char* kArgMaxSrc =
    "__device__ vi argmax(const vi& a, const vi& b) {\n"
    "  return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;\n}";
inline const char* kVlDef = "struct vl { double value; long long index; };";
inline const char* kArgMaxVlSrc =
    "__device__ vl argmax_vl(const vl& a, const vl& b) {\n"
    "  return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;\n}";

// An item from random bits r: one of 1001 values (many ties) and an index.
template <class T>
T random_argmax_item(std::uint64_t r) {
  return {static_cast<decltype(T::value)>(r % 1001), static_cast<decltype(T::index)>((r >> 32) % 1000003)};
}

}  // namespace bench
