// CUDA C++ source generation for a select spec: its build steps. Private to libalgos.
#pragma once

#include "cccl_cache/algos/select/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::Select> {
  // `spec` must be valid. Includes CUB's select dispatch header (its sweep kernel) and
  // the scan kernel header (the init kernel), defines the predicate `cccl_cache_op`
  // (CUB's ::cuda::std::identity itself for identity), DeviceSelect::If's policy
  // selector and the policy its sweep kernel resolves, and names the two kernels the
  // dispatch launches, and the policy probe (values in Policy's field order).
  static GeneratedSource source(const select::Spec& spec);
  // Refuses kernels that would need virtual shared memory (unsupported).
  static Result<void> accept(const select::Policy& policy);
};
