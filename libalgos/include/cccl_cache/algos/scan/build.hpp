// Building a scan with NVRTC + nvJitLink. Needs no GPU and no driver.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::scan {

// Generates CUDA C++ instantiating CUB's two scan kernels (tile-state init, scan) for
// `spec`, compiles and links it for sm_<cc> into a lean cubin, and reads the policy the
// kernels were compiled with. Errors: invalid_argument (bad spec), unsupported (CC
// outside 50..120), compile (the message carries the NVRTC / nvJitLink log).
// Thread-safe.
template <AlgorithmId Id>
[[nodiscard]] Result<BuildResult<Id>> build(const Spec<Id>& spec, std::uint32_t cc) {
  return Scan<Id>::build(spec, cc);
}

}  // namespace cccl_cache::algos::scan
