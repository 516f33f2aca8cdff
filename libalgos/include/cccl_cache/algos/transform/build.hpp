// Building a transform with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::transform {

// Generates CUDA C++ instantiating CUB's transform kernel for `spec` (raw pointers,
// int64 offsets, CUB's default policy), compiles and links it for sm_<cc> and reads
// the policy the kernel was compiled with. Errors: invalid_argument (bad spec),
// unsupported (CC outside 50..120), compile (the message carries the log). Thread-safe.
template <int N>
[[nodiscard]] Result<BuildResult<N>> build(const Spec<N>& spec, std::uint32_t cc) {
  return Transform<N>::build(spec, cc);
}

}  // namespace cccl_cache::algos::transform
