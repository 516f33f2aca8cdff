#include "segmented_sort/codegen.hpp"

#include <string>
#include <string_view>

#include "core/codegen.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<SegmentedSort>::source(const segmented_sort::Spec& spec) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value = algos::detail::sort_value_type(spec.value_type);
  // Offsets as nvcc's host compile spells them (cuda_name: the host's std::int64_t).
  const std::string offset{cuda_name(spec.offset_type)};
  const std::string it = "const " + offset + "*";
  const std::string ss = "cub::detail::segmented_sort::";
  const std::string twp = "cub::detail::three_way_partition::";
  const std::string index = ss + "local_segment_index_t";

  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/kernels/kernel_segmented_sort.cuh",
                               {spec.key_type, spec.value_type});
  out.source += "#include <cub/device/dispatch/kernels/kernel_three_way_partition.cuh>\n"
                "#include <cub/device/dispatch/tuning/tuning_three_way_partition.cuh>\n"
                "#include <thrust/iterator/counting_iterator.h>\n"
                "#include <cuda/std/__iterator/reverse_iterator.h>\n";
  // DeviceSegmentedSort's default selectors: the sort's for (key, value) and the
  // partition's for the segment indices with its int per-partition offsets; the policies
  // the kernels resolve with them at the CC being compiled for, for the probe.
  out.source += "using cccl_cache_selector = " + ss + "policy_selector_from_types<" + key + ", " +
                value + ">;\n";
  out.source += "using cccl_cache_partition_selector = " + twp + "policy_selector_from_types<" +
                index + ", " + twp + "per_partition_offset_t>;\n";
  out.source += "struct cccl_cache_policy {\n"
                "  static constexpr cub::SegmentedSortPolicy p =\n"
                "      cccl_cache_selector{}(cub::detail::current_tuning_cc());\n"
                "  static constexpr cub::ThreeWayPartitionPolicy t =\n"
                "      cccl_cache_partition_selector{}(cub::detail::current_tuning_cc());\n};\n";
  out.source += detail::close_prelude();

  const std::string order =
      spec.descending ? "cub::SortOrder::Descending, " : "cub::SortOrder::Ascending, ";
  const std::string args =
      order + "cccl_cache_selector, " + key + ", " + value + ", " + it + ", " + it + ", " + offset + ">";
  const std::string selectors = ss + "LargeSegmentsSelectorT<" + offset + ", " + it + ", " + it +
                                ">, " + ss + "SmallSegmentsSelectorT<" + offset + ", " + it + ", " +
                                it + ">, ";
  // The segment-index partition as dispatch_segmented_sort.cuh's default
  // PartitionKernelSource instantiates it: counting input, large-and-medium and small
  // outputs, medium through a reverse iterator, int64 segment counts (the host's
  // std::int64_t, as nvcc spells ::cuda::std::int64_t).
  const std::string counts = std::string(cuda_name(ScalarType::int64));
  out.kernels = {
      ss + "DeviceSegmentedSortFallbackKernel<" + args,
      ss + "DeviceSegmentedSortKernelSmall<" + args,
      ss + "DeviceSegmentedSortKernelLarge<" + args,
      twp + "DeviceThreeWayPartitionInitKernel<" + twp + "ScanTileStateT, " + index + "*>",
      twp + "DeviceThreeWayPartitionKernel<cccl_cache_partition_selector, "
          "THRUST_NS_QUALIFIER::counting_iterator<" + index + ">, " + index + "*, " + index + "*, "
          "::cuda::std::reverse_iterator<" + index + "*>, " + index + "*, " + twp + "ScanTileStateT, " +
          selectors + twp + "per_partition_offset_t, " + twp + "streaming_context_t<" + counts + ">>"};
  // The large segments' radix sort runs radix sort's upsweep agent, whose device code holds
  // an unannotated generic lambda (cuda::static_for), which NVRTC takes for host code
  // unless told otherwise.
  out.nvrtc_options = {"-default-device"};
  // Values in Policy's field order.
  std::string probe;
  for (std::string_view path : {CCCL_CACHE_SEGMENTED_SORT_POLICY(CCCL_CACHE_POLICY_PATH)})
    probe += std::string(probe.empty() ? "" : ", ") + "cccl_cache_policy::p." + std::string(path);
  for (std::string_view path : {CCCL_CACHE_SEGMENTED_SORT_PARTITION_POLICY(CCCL_CACHE_POLICY_PATH)})
    probe += ", cccl_cache_policy::t." + std::string(path);
  out.policy_probe = std::string(detail::kPolicyProbeName) + "<" + probe + ">";
  return out;
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<SegmentedSort, segmented_sort::Spec>;

}  // namespace cccl_cache::algos
