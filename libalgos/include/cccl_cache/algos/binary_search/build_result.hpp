// Binary search's build result: the generic record (core/built.hpp) with CUB's transform
// kernel over the search operator, and the transform's runtime values. Device-independent;
// what the store holds.
#pragma once

#include <string>

#include "cccl_cache/algos/binary_search/spec.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/transform_kernel.hpp"

namespace cccl_cache::algos::binary_search {

// DeviceFind::LowerBound / UpperBound are DeviceTransform over the values with CUB's
// search operator (cub/detail/binary_search_helpers.cuh): the kernel and its policy are
// the unary transform's (core/transform_kernel.hpp).
using Policy = transform_kernel::Policy;

class Executable;  // executable.hpp

}  // namespace cccl_cache::algos::binary_search

namespace cccl_cache::algos {

// Binary search's traits for the core (core/built.hpp, AlgorithmCache).
struct BinarySearch : TransformKernelAlgorithm<BinarySearch, binary_search::Spec> {
  using Spec = binary_search::Spec;
  using Executable = binary_search::Executable;
  // The transform kernel's checks: a plausible policy for the record's CC, a kernel name
  // naming the transform kernel, compiled with the policy's launch bounds.
  static Result<void> check(const Spec& spec, const Policy& policy, const BuildRecordView& record);
  static const std::string& dispatch_abi();  // binary_search/dispatch.cu
  static Result<Executable> bind(const BuiltView<BinarySearch>& built, int device);
};

namespace binary_search {
using BuildResult = Built<BinarySearch>;
using BuildResultView = BuiltView<BinarySearch>;
// build(spec, cc) (core/built.hpp): the transform kernel DeviceFind::LowerBound (or
// UpperBound) launches for const T* values, Out* indices, int64 offsets and CUB's search
// operator over a const T* range with an unsigned 64-bit count.
using algos::build;
}  // namespace binary_search

}  // namespace cccl_cache::algos
