// CUDA C++ source generation for a scan_by_key spec: its build steps. Private to
// libalgos.
#pragma once

#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::ScanByKey> {
  // `spec` must be valid (the generic tests also digest mutated specs: it never fails).
  // Includes CUB's scan-by-key dispatch header (its kernels live there), defines the
  // equality `cccl_cache_eq` and the scan operator `cccl_cache_op` (CUB's own function
  // objects for well-known kinds, so that CUB's tuning classifies them as for its own
  // call), DeviceScan's scan-by-key policy selector, names the two kernels (Kernel order)
  // with the template arguments cub::DeviceScan::*ScanByKey uses, and the policy probe.
  static GeneratedSource source(const scan_by_key::Spec& spec);
  // The accumulator the kernels' compile reports: a 1, 2, 4 or 8-byte scalar, or over
  // struct values the struct itself (an operator returning anything else is refused,
  // error unsupported naming it: core/accumulator.hpp accept_accumulator).
  static Result<void> accept(const scan_by_key::Spec& spec, const scan_by_key::Policy& policy);
};
