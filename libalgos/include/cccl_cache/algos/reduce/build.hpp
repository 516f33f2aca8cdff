// Building a reduce with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::reduce {

// Instantiates CUB's three reduce kernels for `spec` (DeviceReduce::Reduce's, with its
// default policy selector), compiles and links them for sm_<cc> into a lean cubin and
// reads the policy they were compiled with. Errors: invalid_argument (bad spec),
// unsupported (CC outside 50..120; an accumulator that is not 1, 2, 4 or 8 bytes),
// compile (the message carries the NVRTC / nvJitLink log). Thread-safe.
[[nodiscard]] inline Result<BuildResult> build(const Spec& spec, std::uint32_t cc) {
  return Reduce::build(spec, cc);
}

}  // namespace cccl_cache::algos::reduce
