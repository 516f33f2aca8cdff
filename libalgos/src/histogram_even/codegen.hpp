// CUDA C++ source generation for a histogram_even spec: its build steps. Private to
// libalgos.
#pragma once

#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "core/build.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::HistogramEven> {
  // `spec` must be valid. Includes CUB's histogram kernel header, defines the policy
  // selector HistogramEven uses (one channel, even bins) and the policy its kernels
  // resolve, and names the three kernels the dispatch launches (init, sweep with shared
  // bins, sweep with global bins: for 1-byte samples the shared one is CUB's byte-sample
  // instance, binning the 256 values first), and the policy probe (values in Policy's
  // field order).
  static GeneratedSource source(const histogram_even::Spec& spec);
};
