// CUDA C++ source generation for a reduce spec: its build steps. Private to libalgos.
#pragma once

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::Reduce> {
  // `spec` must be valid. Includes CUB's reduce kernel header only, defines the operator
  // `cccl_cache_op` (an alias of CUB's function object for a well-known kind), CUB's
  // accumulator type for it and DeviceReduce's default policy selector, and names the
  // three kernels DeviceReduce::Reduce launches (in Kernel order), each over its own
  // empty selector subclass (cccl_cache_single_tile, cccl_cache_first_pass,
  // cccl_cache_second_pass: the same policy, but names that say the kernel's role), and
  // the policy probe (values in Policy's field order).
  static GeneratedSource source(const reduce::Spec& spec);
  // Error unsupported: an accumulator the host dispatch has no stand-in for.
  static Result<void> accept(const reduce::Spec& spec, const reduce::Policy& policy);
};
