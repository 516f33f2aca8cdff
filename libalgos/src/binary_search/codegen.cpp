#include "binary_search/codegen.hpp"

#include <string>
#include <vector>

#include "core/codegen.hpp"
#include "core/iterator.hpp"
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
  auto args = transform_kernel::detail::array_arguments(in, spec.out_type);
  std::vector<const Operator*> defined = {&spec.comparator};
  args.iterator_types = {spec.values_in.type, spec.output.type};
  args.in[0] = algos::detail::argument_type(op, "cccl_cache_in0_t", spec.values_in, spec.type,
                                            false, false, args.in[0], defined);
  args.out = algos::detail::argument_type(op, "cccl_cache_out_t", spec.output, spec.out_type, true,
                                          false, args.out, defined);
  return transform_kernel::detail::kernel_source(in, spec.out_type, op, args,
                                                 "cub/detail/binary_search_helpers.cuh");
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<BinarySearch, binary_search::Spec>;

}  // namespace cccl_cache::algos
