#include "transform/codegen.hpp"

#include <string>

#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/codegen.hpp"
#include "core/transform_kernel.hpp"

namespace cccl_cache::algos {

template <int N>
detail::GeneratedSource detail::BuildSteps<Transform<N>>::source(const transform::Spec<N>& spec) {
  // A custom operator's result is converted to the output type; a well-known one is
  // CUB's own function object, its result assigned to the output as in CUB.
  std::string defs =
      algos::detail::user_source(spec.op) +
      algos::detail::operator_struct(
          "cccl_cache_op", spec.op, N,
          spec.op.kind == OpKind::custom ? std::string(cuda_name(spec.out)) : std::string(),
          spec.in[0] == spec.in[N - 1] ? spec.in[0].scalar : ScalarType::none);
  // Iterators take the place of the arrays they stand for, each defined once with its
  // custom operator's source (none that is already defined).
  const auto args = transform_kernel::detail::iterator_arguments(defs, spec.in, spec.inputs,
                                                                 spec.out, spec.output, {&spec.op});
  return transform_kernel::detail::kernel_source(spec.in, spec.out, defs, args);
}

template struct detail::BuildSteps<UnaryTransform>;
template struct detail::BuildSteps<BinaryTransform>;
// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<UnaryTransform, transform::UnarySpec>;
template struct AlgorithmBase<BinaryTransform, transform::BinarySpec>;
}  // namespace cccl_cache::algos
