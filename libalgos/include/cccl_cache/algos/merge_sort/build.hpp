// Building a merge sort with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include "cccl_cache/algos/merge_sort/build_result.hpp"

namespace cccl_cache::algos::merge_sort {

// build(spec, cc) (core/built.hpp): CUB's three merge-sort kernels for `spec`, and their policy values.
using algos::build;

}  // namespace cccl_cache::algos::merge_sort
