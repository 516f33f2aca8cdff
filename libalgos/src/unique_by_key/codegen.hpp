// CUDA C++ source generation for a unique_by_key spec: its build steps. Private to
// libalgos.
#pragma once

#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::UniqueByKey> {
  // `spec` must be valid. Includes CUB's unique-by-key and scan kernel headers, defines
  // the equality operator `cccl_cache_op` (CUB's ::cuda::std::equal_to<> itself for
  // equal_to), DeviceSelect::UniqueByKey's policy selector and the policy its sweep
  // kernel resolves, and names the two kernels the dispatch launches, and the policy
  // probe (values in Policy's field order).
  static GeneratedSource source(const unique_by_key::Spec& spec);
  // Refuses kernels that would need virtual shared memory (unsupported).
  static Result<void> accept(const unique_by_key::Policy& policy);
};
