// CUDA C++ source generation for a scan spec: its build steps. Private to libalgos.
#pragma once

#include "cccl_cache/algos/scan/build_result.hpp"
#include "core/build.hpp"

template <cccl_cache::algos::AlgorithmId Id>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::Scan<Id>> {
  // `spec` must be valid (the generic tests also digest mutated specs: it never fails).
  // The source includes CUB's scan kernel header only, defines the operator
  // `cccl_cache_op` (CUB's own function object for a well-known kind, so that CUB's
  // tuning classifies it as for its own call), names the two kernels (Kernel order) with
  // the template arguments cub::DeviceScan uses (CUB's accumulator `cccl_cache_accum_t`),
  // and the policy probe (Policy's order).
  static GeneratedSource source(const scan::Spec<Id>& spec);
  // Error unsupported: an accumulator the host dispatch has no stand-in for (a struct's
  // must be the struct: the operator returns it), a look-ahead policy for struct items.
  static Result<void> accept(const scan::Spec<Id>& spec, const scan::Policy& policy);
};
