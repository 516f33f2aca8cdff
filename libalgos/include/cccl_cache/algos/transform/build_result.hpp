// Transform's build result: the generic record (core/built.hpp) with its one kernel
// and runtime values named, for unary (Transform<1>) and binary (Transform<2>).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/transform/spec.hpp"

namespace cccl_cache::algos::transform {

// The TransformPolicy the kernel was compiled with (CUB's default selector for raw
// pointers, at the target CC), as far as the host dispatch reads it; from the
// kernel's own compile (policy probe).
struct Policy {
  std::uint32_t algorithm = 0;  // cub::TransformAlgorithm: prefetch, vectorized, ldgsts, ublkcp
  std::uint32_t block_threads = 0;  // the kernel's launch bound: its algorithm's threads
  std::uint32_t min_bytes_in_flight = 0;
  std::uint32_t prefetch_threads = 0, prefetch_items_no_input = 0;
  std::uint32_t prefetch_min_items = 0, prefetch_max_items = 0;
  std::uint32_t vectorized_threads = 0, vectorized_items = 0, vec_size = 0;
  std::uint32_t async_threads = 0, async_min_items = 0, async_max_items = 0;

  template <class Self, class V>
  static void fields(Self& p, V&& v) {
    v("algorithm", p.algorithm);
    v("block_threads", p.block_threads);
    v("min_bytes_in_flight", p.min_bytes_in_flight);
    v("prefetch_threads", p.prefetch_threads);
    v("prefetch_items_no_input", p.prefetch_items_no_input);
    v("prefetch_min_items", p.prefetch_min_items);
    v("prefetch_max_items", p.prefetch_max_items);
    v("vectorized_threads", p.vectorized_threads);
    v("vectorized_items", p.vectorized_items);
    v("vec_size", p.vec_size);
    v("async_threads", p.async_threads);
    v("async_min_items", p.async_min_items);
    v("async_max_items", p.async_max_items);
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
