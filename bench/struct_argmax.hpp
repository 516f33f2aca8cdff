// An 8-byte {float value; int index} struct and its argmax (the greater value, the lower
// index among equal ones: associative and commutative, so any order of CUB's gives the
// same bits), for nvcc's CUB and as our specs' source: the struct benchmarks share them.
#pragma once

namespace bench {

struct vi {
  float value;
  int index;
};
struct ArgMax {
  __device__ vi operator()(const vi& a, const vi& b) const {
    return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
};
inline const char* kViDef = "struct vi { float value; int index; };";
inline const char* kArgMaxSrc =
    "__device__ vi argmax(const vi& a, const vi& b) {\n"
    "  return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;\n}";

}  // namespace bench
