// Tests' access to AlgorithmCache's private state (fork handling). Private to libalgos.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/algorithm_cache.hpp"

namespace cccl_cache::algos::detail {

struct AlgorithmCacheAccess {
  // Registers a build of (spec, cc) in flight that never completes, as a build running
  // in another thread at fork() time looks to the child. Not thread-safe with requests
  // for the same key.
  static void hold_flight(AlgorithmCache& cache, const AnySpec& spec, std::uint32_t cc);
  // Whether this process's state of `cache` has a build of (spec, cc) in flight.
  static bool in_flight(AlgorithmCache& cache, const AnySpec& spec, std::uint32_t cc);
};

}  // namespace cccl_cache::algos::detail
