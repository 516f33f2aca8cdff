// Building a reduce with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include "cccl_cache/algos/reduce/build_result.hpp"

namespace cccl_cache::algos::reduce {

// build(spec, cc) (core/built.hpp): CUB's three reduce kernels (DeviceReduce::Reduce's,
// default policy selector); unsupported also for an accumulator not of 1, 2, 4 or 8 bytes.
using algos::build;

}  // namespace cccl_cache::algos::reduce
