// Building a scan with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include "cccl_cache/algos/scan/build_result.hpp"

namespace cccl_cache::algos::scan {

// build(spec, cc) (core/built.hpp): CUB's two scan kernels (tile-state init, scan) for `spec`.
using algos::build;

}  // namespace cccl_cache::algos::scan
