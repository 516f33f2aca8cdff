#include "merge_sort/codegen.hpp"

#include <string>
#include <vector>

#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {
namespace {

std::string comparator_body(const Comparator& c) {
  switch (c.kind) {
    case ComparatorKind::less:
      return "return a < b;";
    case ComparatorKind::greater:
      return "return b < a;";
    case ComparatorKind::custom:
      return "return static_cast<bool>(" + c.name + "(" + algos::detail::state_argument(c) +
             "a, b));";
    default:  // validate() admits only the three above
      return "";
  }
}

}  // namespace

detail::GeneratedSource detail::BuildSteps<MergeSort>::source(const merge_sort::Spec& spec) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value = algos::detail::sort_value_type(spec.value_type);
  const std::string offset{cuda_name(spec.offset_type)};

  algos::detail::GeneratedSource out;
  // CUB's kernel header includes its tuning header (the policy selector) itself.
  out.source = algos::detail::prelude(
      "cub/device/dispatch/kernels/kernel_merge_sort.cuh",
      {spec.key_type.scalar, spec.value_type.scalar, spec.keys_in.type, spec.values_in.type});
  out.source += algos::detail::struct_source({&spec.key_type, &spec.value_type});
  out.source += algos::detail::user_source(spec.comparator);
  out.source += "\nusing cccl_cache_key_t = " + key + ";\nusing cccl_cache_value_t = " + value +
                ";\nusing cccl_cache_offset_t = " + offset + ";\n";
  // Input iterators take the place of the input arrays: both inputs where either is one
  // (a keys-only sort reads no values: NullType*). An array spec's source and kernel
  // names are as they were: its key with them.
  std::string keys_in = key + "*", values_in = value + "*";
  if (spec.iterators()) {
    std::vector<const Operator*> defined = {&spec.comparator};
    keys_in = algos::detail::argument_type(out.source, "cccl_cache_keys_in_t", spec.keys_in,
                                           spec.key_type, false, true, keys_in, defined);
    if (!spec.keys_only())
      values_in = algos::detail::argument_type(out.source, "cccl_cache_values_in_t",
                                               spec.values_in, spec.value_type, false, true,
                                               values_in, defined);
  }
  out.source +=
      "struct cccl_cache_compare {\n" + algos::detail::state_member(spec.comparator) +
      "  __device__ bool operator()(const cccl_cache_key_t& a, "
      "const cccl_cache_key_t& b) const { " +
      comparator_body(spec.comparator) + " }\n};\n";
  // The policy the kernels themselves resolve (CUB's default selector for
  // DeviceMergeSort, at the CC being compiled for, after the virtual-shared-memory
  // fallback), for the probe.
  out.source +=
      "using cccl_cache_selector = "
      "cub::detail::merge_sort::policy_selector_from_types<cccl_cache_key_t*>;\n"
      "using cccl_cache_helper = cub::detail::merge_sort::device_merge_sort_vsmem_helper_t<\n"
      "    cub::detail::device_policy_getter<cccl_cache_selector, "
      "cub::detail::current_tuning_cc().get()>,\n"
      "    " +
      (spec.iterators() ? keys_in + ", " + values_in : "cccl_cache_key_t*, cccl_cache_value_t*") +
      ", cccl_cache_key_t*, cccl_cache_value_t*,\n"
      "    cccl_cache_offset_t, cccl_cache_compare, cccl_cache_key_t, cccl_cache_value_t>;\n";
  out.source += algos::detail::close_prelude();

  // Exactly the kernels cub::detail::merge_sort::dispatch<KeyT*, ValueT*, KeyT*, ValueT*,
  // OffsetT, Compare> launches (ValueT = cub::NullType for keys-only, as
  // DeviceMergeSort::SortKeys does), with DeviceMergeSort's default policy selector.
  const std::string iters = keys_in + ", " + values_in + ", " + key + "*, " + value + "*, " +
                            offset + ", cccl_cache_compare, " + key + ", " + value;
  // In Kernel order (build_result.hpp).
  out.kernels = {
      "cub::detail::merge_sort::DeviceMergeSortBlockSortKernel<cccl_cache_selector, " + iters +
          ">",
      "cub::detail::merge_sort::DeviceMergeSortPartitionKernel<" + key + "*, " + offset +
          ", cccl_cache_compare, " + key + ">",
      "cub::detail::merge_sort::DeviceMergeSortMergeKernel<cccl_cache_selector, " + iters + ">"};
  // Values in Policy's field order.
  out.policy_probe =
      std::string(algos::detail::kPolicyProbeName) +
          "<cccl_cache_helper::policy.threads_per_block, "
          "cccl_cache_helper::policy.threads_per_block * "
          "cccl_cache_helper::policy.items_per_thread, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::block_sort_agent_t>::vsmem_per_block, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::merge_agent_t>::vsmem_per_block>";
  return out;
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<MergeSort, merge_sort::Spec>;

Result<void> detail::BuildSteps<MergeSort>::accept(const merge_sort::Policy& policy) {
  if (policy.block_sort_vsmem_per_block == 0 && policy.merge_vsmem_per_block == 0) return {};
  return fail(ErrorCode::unsupported,
              "these kernels need virtual shared memory, which CCCL 3.5's merge-sort dispatch "
              "with run-time policies does not allocate");
}

}  // namespace cccl_cache::algos
