// Tests' access to AlgorithmCache's private state (fork handling). Private to libalgos.
#pragma once

#include <cstdint>
#include <span>

#include "cccl_cache/algos/algorithm_cache.hpp"

namespace cccl_cache::algos::detail {

struct AlgorithmCacheAccess {
  // Registers a build of (spec, cc) in flight that never completes, as a build running
  // in another thread at fork() time looks to the child. Not thread-safe with requests
  // for the same key.
  static void hold_flight(AlgorithmCache& cache, const AnySpec& spec, std::uint32_t cc);
  // Whether this process's state of `cache` has a build of (spec, cc) in flight.
  static bool in_flight(AlgorithmCache& cache, const AnySpec& spec, std::uint32_t cc);
  // prefetch() for a device whose serving CCs (cc_family.hpp's serving_ccs) are `ccs`,
  // without a device.
  static Result<PrefetchReport> prefetch(AlgorithmCache& cache, std::span<const AnySpec> specs,
                                         std::span<const std::uint32_t> ccs);
};

}  // namespace cccl_cache::algos::detail
