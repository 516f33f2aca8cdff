// What the algorithms on CUB's transform kernel share (DeviceTransform's unary and binary
// transform, DeviceFind's lower and upper bound): one kernel and the policy it was
// compiled with, read from its own compile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/policy_list.hpp"

namespace cccl_cache::algos::transform_kernel {

// The TransformPolicy the kernel was compiled with (CUB's default selector for raw
// pointers, at the target CC), as far as the host dispatch reads it; from the
// kernel's own compile (policy probe): the algorithm, the block size launched, then each
// value with the member of CUB's TransformPolicy it mirrors (core/policy_list.hpp).
#define CCCL_CACHE_TRANSFORM_POLICY(X)                                 \
  X(min_bytes_in_flight, min_bytes_in_flight)                          \
  X(prefetch_threads, prefetch.threads_per_block)                      \
  X(prefetch_items_no_input, prefetch.items_per_thread_no_input)       \
  X(prefetch_min_items, prefetch.min_items_per_thread)                 \
  X(prefetch_max_items, prefetch.max_items_per_thread)                 \
  X(vectorized_threads, vectorized.threads_per_block)                  \
  X(vectorized_items, vectorized.items_per_thread)                     \
  X(vec_size, vectorized.vec_size)                                     \
  X(async_threads, async_copy.threads_per_block)                       \
  X(async_min_items, async_copy.min_items_per_thread)                  \
  X(async_max_items, async_copy.max_items_per_thread)

struct Policy {
  std::uint32_t algorithm = 0;  // cub::TransformAlgorithm: prefetch, vectorized, ldgsts, ublkcp
  std::uint32_t block_threads = 0;  // the kernel's launch bound: its algorithm's threads
  CCCL_CACHE_TRANSFORM_POLICY(CCCL_CACHE_POLICY_MEMBER)

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("algorithm", p.algorithm);
    v("block_threads", p.block_threads);
    CCCL_CACHE_TRANSFORM_POLICY(CCCL_CACHE_POLICY_FIELD)
  }
  bool operator==(const Policy&) const = default;
};

enum Algorithm : std::uint32_t { prefetch = 0, vectorized = 1, ldgsts = 2, ublkcp = 3 };

}  // namespace cccl_cache::algos::transform_kernel

namespace cccl_cache::algos {

// The traits every algorithm on the transform kernel shares (core/built.hpp's list): its
// policy and one kernel. Each derives its traits from it and adds Spec, Executable,
// check, dispatch_abi and bind.
template <class A, class SpecT>
struct TransformKernelAlgorithm : AlgorithmBase<A, SpecT> {
  using Policy = transform_kernel::Policy;
  static constexpr std::size_t kKernels = 1;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"transform"};
};

}  // namespace cccl_cache::algos
