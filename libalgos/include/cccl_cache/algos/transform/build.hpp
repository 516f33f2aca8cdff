// Building a transform with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include "cccl_cache/algos/transform/build_result.hpp"

namespace cccl_cache::algos::transform {

// build(spec, cc) (core/built.hpp): CUB's transform kernel for `spec` (raw pointers, int64 offsets, CUB's
// default policy).
using algos::build;

}  // namespace cccl_cache::algos::transform
