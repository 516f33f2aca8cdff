// Building a merge sort with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::merge_sort {

// Generates CUDA C++ instantiating CUB's three merge-sort kernels for `spec`,
// compiles and links it for sm_<cc> into a lean cubin, and reads the policy values
// the kernels were compiled with. Errors: invalid_argument (bad spec), unsupported
// (CC outside 50..120), compile (the message carries the NVRTC / nvJitLink log).
// Thread-safe.
[[nodiscard]] inline Result<BuildResult> build(const Spec& spec, std::uint32_t cc) {
  return MergeSort::build(spec, cc);
}

}  // namespace cccl_cache::algos::merge_sort
