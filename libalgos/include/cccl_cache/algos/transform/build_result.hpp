// Transform's build result: the generic record (core/built.hpp) with its one kernel
// and runtime values named, for unary (Transform<1>) and binary (Transform<2>).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/policy_list.hpp"
#include "cccl_cache/algos/transform/spec.hpp"

namespace cccl_cache::algos::transform {

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

template <int N>
class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::transform

namespace cccl_cache::algos {

// Transform's traits for the core (core/built.hpp, AlgorithmCache); N inputs.
template <int N>
struct Transform : AlgorithmBase<Transform<N>, transform::Spec<N>> {
  using Spec = transform::Spec<N>;
  using Policy = transform::Policy;
  using Executable = transform::Executable<N>;
  static constexpr std::size_t kKernels = 1;
  static constexpr std::array<std::string_view, kKernels> kKernelRoles = {"transform"};
  // A plausible policy for the record's CC, and a kernel name that names the transform
  // kernel, compiled with the policy's launch bounds.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // transform/dispatch.cu
  static Result<Executable> bind(const BuiltView<Transform>& built, int device);
};

using UnaryTransform = Transform<1>;
using BinaryTransform = Transform<2>;

namespace transform {
template <int N>
using BuildResult = Built<Transform<N>>;
template <int N>
using BuildResultView = BuiltView<Transform<N>>;
// build(spec, cc) (core/built.hpp): CUB's transform kernel for `spec` (raw pointers,
// int64 offsets, CUB's default policy).
using algos::build;
}  // namespace transform

}  // namespace cccl_cache::algos
