// A reduce or scan spec over an input iterator, as the iterator tests (unit, build, GPU)
// make them, and what those tests share: the toolchain their keys are taken under, the
// item counts the GPU tests run, custom transform operators.
#pragma once

#include <cstdint>
#include <utility>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"

namespace test_support {

// A fixed toolchain (CCCL 3.5.0, NVRTC and nvJitLink 13) for comparing specs' keys.
inline cccl_cache::algos::Toolchain key_toolchain() {
  cccl_cache::algos::Toolchain tc;
  tc.cccl_version = 3005000;
  tc.nvrtc_major = tc.nvjitlink_major = 13;
  return tc;
}

// The GPU tests' item counts: empty, one, two, around a tile, above 2^20 and 2^26.
inline constexpr std::uint64_t kGpuCounts[] = {0, 1, 2, 1023, 1025, (1u << 20) + 3, 1u << 26};

// x * x over float32 (custom, stateless: a transform iterator's operator).
inline cccl_cache::algos::Operator square_f() {
  return cccl_cache::algos::Operator::custom("square_f",
                                             "__device__ float square_f(float x) { return x * x; }");
}

// i / 2 over int64 (custom, stateless: a transform iterator's operator; over a counting
// base, runs of two equal keys).
inline cccl_cache::algos::Operator halve() {
  return cccl_cache::algos::Operator::custom(
      "halve", "__device__ long long halve(long long i) { return i / 2; }");
}

// Spec (reduce::Spec, scan::InclusiveSpec, scan::ExclusiveSpec) of `type` items read
// through `input`; `init` where the spec has it (a seeded inclusive scan).
template <class Spec>
Spec over(cccl_cache::algos::ScalarType type, cccl_cache::algos::Iterator input, bool init = false) {
  Spec s;
  s.type = type;
  s.input = std::move(input);
  if constexpr (requires { s.init; }) s.init = init;
  return s;
}

}  // namespace test_support
