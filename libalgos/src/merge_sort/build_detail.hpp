// The stages of a merge-sort build, exposed for tests and benchmarks. Private.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "core/build.hpp"

namespace cccl_cache::algos::merge_sort::detail {

using BuildReport = algos::detail::BuildReport<MergeSort>;

// Everything build() does, plus the intermediate sizes.
Result<BuildReport> build_with_report(const Spec& spec, std::uint32_t cc);

// The same source compiled by NVRTC straight to a cubin (every module-scope variable
// kept), to measure what the LTO link saves. Not used by build().
Result<std::vector<std::byte>> build_naive_cubin(const Spec& spec, std::uint32_t cc);

}  // namespace cccl_cache::algos::merge_sort::detail
