// The stages of a merge-sort build, exposed for tests and benchmarks. Private.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::merge_sort::detail {

struct BuildReport {
  BuildResult result;
  std::size_t ltoir_bytes = 0;  // NVRTC's output, before nvJitLink
  std::string nvrtc_log;        // warnings from a successful compile
};

// Everything build() does, plus the intermediate sizes.
Result<BuildReport> build_with_report(const Spec& spec, std::uint32_t cc);

// The same source compiled by NVRTC straight to a cubin (every module-scope variable
// kept), to measure what the LTO link saves. Not used by build().
Result<std::vector<std::byte>> build_naive_cubin(const Spec& spec, std::uint32_t cc);

// Whether the CCCL headers NVRTC will compile against (cccl_include_dir()) are the
// version the host dispatch was compiled with (host_cccl_version()). Error:
// unsupported, naming both versions and the directory. Every build checks it first.
Result<void> check_cccl_version();

// Whether this NVRTC can target sm_<cc> (nvrtcGetSupportedArchs).
bool nvrtc_supports(std::uint32_t cc);

}  // namespace cccl_cache::algos::merge_sort::detail
