// Transform's build result: the generic record (core/built.hpp) with its one kernel
// and runtime values named, for unary (Transform<1>) and binary (Transform<2>).
#pragma once

#include <string>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/transform_kernel.hpp"
#include "cccl_cache/algos/transform/spec.hpp"

namespace cccl_cache::algos::transform {

// The transform kernel's policy (core/transform_kernel.hpp).
using Policy = transform_kernel::Policy;

template <int N>
class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::transform

namespace cccl_cache::algos {

// Transform's traits for the core (core/built.hpp, AlgorithmCache); N inputs.
template <int N>
struct Transform : TransformKernelAlgorithm<Transform<N>, transform::Spec<N>> {
  using Spec = transform::Spec<N>;
  using Policy = transform::Policy;
  using Executable = transform::Executable<N>;
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
