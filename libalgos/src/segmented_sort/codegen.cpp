#include "segmented_sort/codegen.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "core/codegen.hpp"
#include "core/iterator.hpp"
#include "segmented_sort/dispatch.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<SegmentedSort>::source(const segmented_sort::Spec& spec) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value = algos::detail::sort_value_type(spec.value_type);
  // Offsets as nvcc's host compile spells them (cuda_name: the host's std::int64_t).
  const std::string offset{cuda_name(spec.offset_type)};
  const std::string ss = "cub::detail::segmented_sort::";
  const std::string twp = "cub::detail::three_way_partition::";
  const std::string index = ss + "local_segment_index_t";

  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/kernels/kernel_segmented_sort.cuh",
                               {spec.key_type, spec.value_type.scalar, spec.begin_offsets.type,
                                spec.end_offsets.type});
  out.source += detail::struct_source({&spec.value_type});
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
  // The offsets: `const Offset*` arrays, or both iterators where either is one (the host
  // dispatch is instantiated for arrays or iterators). An array spec's source and kernel
  // names are as they were: its key with them.
  std::vector<const Operator*> defined;
  auto offsets = [&](const char* name, const Iterator& it) {
    return detail::argument_type(out.source, name, it, spec.offset_type, false, spec.iterators(),
                                 "const " + offset + "*", defined);
  };
  const std::string begin = offsets("cccl_cache_begin_t", spec.begin_offsets);
  const std::string end = offsets("cccl_cache_end_t", spec.end_offsets);
  if (spec.iterators()) {
    // The dispatch packs the segment selectors, a kernel argument, where selector_layout
    // says from the iterators' extents: a build fails where the device's iterators or
    // selectors have other sizes or alignments.
    const auto b = detail::argument_extent(spec.begin_offsets, spec.offset_type);
    const auto e = detail::argument_extent(spec.end_offsets, spec.offset_type);
    const auto l = segmented_sort::detail::selector_layout(size_of(spec.offset_type), b, e);
    auto holds = [&](const std::string& type, std::size_t size, std::size_t align) {
      out.source += "static_assert(sizeof(" + type + ") == " + std::to_string(size) +
                    " && alignof(" + type + ") == " + std::to_string(align) +
                    ", \"the host packs this kernel argument so\");\n";
    };
    holds(begin, b.size, b.align);
    holds(end, e.size, e.align);
    for (const char* kind : {"Large", "Small"})
      holds(ss + kind + "SegmentsSelectorT<" + offset + ", " + begin + ", " + end + ">",
            l.extent.size, l.extent.align);
  }
  out.source += detail::close_prelude();

  const std::string order =
      spec.descending ? "cub::SortOrder::Descending, " : "cub::SortOrder::Ascending, ";
  const std::string args = order + "cccl_cache_selector, " + key + ", " + value + ", " + begin +
                           ", " + end + ", " + offset + ">";
  const std::string selectors = ss + "LargeSegmentsSelectorT<" + offset + ", " + begin + ", " +
                                end + ">, " + ss + "SmallSegmentsSelectorT<" + offset + ", " +
                                begin + ", " + end + ">, ";
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
