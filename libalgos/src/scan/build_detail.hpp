// The stages of a scan build, exposed for tests and benchmarks. Private.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/scan/build_result.hpp"
#include "core/build.hpp"

namespace cccl_cache::algos::scan::detail {

template <AlgorithmId Id>
using BuildReport = algos::detail::BuildReport<Scan<Id>>;

// Everything build() does, plus the intermediate sizes.
template <AlgorithmId Id>
Result<BuildReport<Id>> build_with_report(const Spec<Id>& spec, std::uint32_t cc);

}  // namespace cccl_cache::algos::scan::detail
