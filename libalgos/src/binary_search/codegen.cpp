#include "binary_search/codegen.hpp"

#include <string>
#include <utility>
#include <vector>

#include "binary_search/dispatch.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"
#include "core/transform_kernel.hpp"

namespace cccl_cache::algos {

namespace {
// DeviceFind's search functor over a range iterator cccl_cache_data_t, built at each
// call from the operator's bytes: the iterator in the first kRangeBytes, the count and
// the comparator each at a 16-byte boundary after them, a layout the host packs for every
// iterator (CUB's functor would hold the iterator at an offset that depends on its size).
std::string search_over_iterator(const std::string& mode) {
  const std::string r = std::to_string(binary_search::detail::kRangeBytes);
  return "static_assert(sizeof(cccl_cache_data_t) <= " + r +
         " && alignof(cccl_cache_data_t) <= 16, \"cccl-cache: the range iterator outgrows its "
         "bytes\");\n"
         "struct cccl_cache_op {\n"
         "  union alignas(16) range_t { cccl_cache_data_t first; unsigned char bytes[" + r + "]; } range;\n"
         "  alignas(16) unsigned long long num_items;\n"
         "  alignas(16) cccl_cache_compare op;\n"
         "  template <class Value>\n"
         "  __device__ ::cuda::std::ptrdiff_t operator()(const Value& value) const {\n"
         "    return cub::detail::find::binary_search_transform_op_t<cccl_cache_data_t, unsigned long long,\n"
         "        cccl_cache_compare, cub::detail::find::" + mode + ">{range.first, num_items, op}(value);\n"
         "  }\n"
         "};\n"
         // Members aligned to 16 after a 16-aligned union of r bytes: the count at r, the
         // comparator at r + 16.
         "static_assert(sizeof(cccl_cache_op::range_t) == " + r +
         ", \"cccl-cache: the search operator's layout\");\n";
}
}  // namespace

detail::GeneratedSource detail::BuildSteps<BinarySearch>::source(const binary_search::Spec& spec) {
  const std::string type{cuda_name(spec.type)};
  const std::string mode = spec.upper ? "upper_bound" : "lower_bound";
  std::string op =
      algos::detail::user_source(spec.comparator) +
      algos::detail::operator_struct("cccl_cache_compare", spec.comparator, 2, "bool", spec.type.scalar);
  std::vector<const Operator*> defined = {&spec.comparator};
  if (spec.data_in.is_pointer()) {
    // DeviceFind's range offset is choose_offset_t of its count: unsigned long long for
    // the 64-bit counts the executable takes.
    op += "using cccl_cache_op = cub::detail::find::binary_search_transform_op_t<const " + type +
          "*, unsigned long long, cccl_cache_compare, cub::detail::find::" + mode + ">;\n";
  } else {
    algos::detail::argument_type(op, "cccl_cache_data_t", spec.data_in, spec.type, false, false, {},
                                 defined);
    op += search_over_iterator(mode);
  }
  // The values and the output: arrays, or iterators in their place (an array spec's
  // source, kernel name and key are as they were).
  const ElementType in[1] = {spec.type};
  const auto args = transform_kernel::detail::iterator_arguments(
      op, in, {&spec.values_in, 1}, spec.out_type, spec.output, std::move(defined));
  return transform_kernel::detail::kernel_source(in, spec.out_type, op, args,
                                                 "cub/detail/binary_search_helpers.cuh");
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<BinarySearch, binary_search::Spec>;

}  // namespace cccl_cache::algos
