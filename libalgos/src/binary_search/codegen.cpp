#include "binary_search/codegen.hpp"

#include <string>

#include "core/codegen.hpp"
#include "core/transform_kernel.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<BinarySearch>::source(const binary_search::Spec& spec) {
  const std::string type{cuda_name(spec.type)};
  // DeviceFind's range offset is choose_offset_t of its count: unsigned long long for the
  // 64-bit counts the executable takes.
  std::string op =
      algos::detail::user_source(spec.comparator) +
      algos::detail::operator_struct("cccl_cache_compare", spec.comparator, 2, "bool", spec.type) +
      "using cccl_cache_op = cub::detail::find::binary_search_transform_op_t<const " + type +
      "*, unsigned long long, cccl_cache_compare, cub::detail::find::" +
      (spec.upper ? "upper_bound" : "lower_bound") + ">;\n";
  // The values and the output: arrays, or iterators in their place (an array spec's
  // source, kernel name and key are as they were).
  const ScalarType in[1] = {spec.type};
  const auto args = transform_kernel::detail::iterator_arguments(
      op, in, {&spec.values_in, 1}, spec.out_type, spec.output, {&spec.comparator});
  return transform_kernel::detail::kernel_source(in, spec.out_type, op, args,
                                                 "cub/detail/binary_search_helpers.cuh");
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<BinarySearch, binary_search::Spec>;

}  // namespace cccl_cache::algos
