// A reduce build with its intermediate sizes, for tests and benchmarks. Private.
#pragma once

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "core/build.hpp"

namespace cccl_cache::algos::reduce::detail {

using BuildReport = algos::detail::BuildReport<Reduce>;

// Everything build() does, plus the intermediate sizes.
Result<BuildReport> build_with_report(const Spec& spec, std::uint32_t cc);

}  // namespace cccl_cache::algos::reduce::detail
