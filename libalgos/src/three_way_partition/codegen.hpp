// CUDA C++ source generation for a three-way partition spec: its build steps. Private to
// libalgos.
#pragma once

#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::ThreeWayPartition> {
  // `spec` must be valid. Includes CUB's three-way partition kernel header, defines the
  // predicates `cccl_cache_first` and `cccl_cache_second` (bool results), the policy
  // selector DevicePartition::If uses and the policy its partition kernel resolves, and
  // names the two kernels the dispatch launches, and the policy probe (values in
  // Policy's field order).
  static GeneratedSource source(const three_way_partition::Spec& spec);
};
