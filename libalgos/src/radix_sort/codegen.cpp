#include "radix_sort/codegen.hpp"

#include <string>
#include <string_view>

#include "core/codegen.hpp"
#include "core/materialize.hpp"

namespace cccl_cache::algos::radix_sort::detail {

algos::detail::GeneratedSource generate_source(const Spec& spec, bool onesweep) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value = algos::detail::sort_value_type(spec.value_type);
  const std::string offset{cuda_name(spec.offset_type)};

  algos::detail::GeneratedSource out;
  out.source = algos::detail::prelude("cub/device/dispatch/kernels/kernel_radix_sort.cuh",
                                      {spec.key_type, spec.value_type.scalar});
  out.source += algos::detail::struct_source({&spec.value_type});
  // The policy the kernels themselves resolve for the CC being compiled, for the probe.
  out.source += "\nusing cccl_cache_selector = cub::detail::radix_sort::policy_selector_from_types<" +
                key + ", " + value + ", " + offset +
                ">;\n"
                "struct cccl_cache_policy {\n"
                "  static constexpr cub::RadixSortPolicy p =\n"
                "      cccl_cache_selector{}(cub::detail::current_tuning_cc());\n};\n";
  const bool materialize = !spec.values_in.is_pointer();  // slot 6: the values_in kernel
  if (materialize)
    out.source += algos::detail::materialize_source(spec.values_in, spec.value_type.scalar);
  out.source += algos::detail::close_prelude();

  const std::string ns = "cub::detail::radix_sort::";
  const std::string sel = "cccl_cache_selector, ";
  const std::string order =
      spec.descending ? "cub::SortOrder::Descending, " : "cub::SortOrder::Ascending, ";
  const std::string kvo = key + ", " + value + ", " + offset;
  const std::string single = ns + "DeviceRadixSortSingleTileKernel<" + sel + order + kvo + ">";
  if (onesweep) {
    out.kernels = {single,
                   ns + "DeviceRadixSortHistogramKernel<" + sel + order + key + ", " + offset + ">",
                   ns + "DeviceRadixSortExclusiveSumKernel<" + sel + offset + ">",
                   ns + "DeviceRadixSortInitKernel<" + sel + "int, " + offset + ">",
                   ns + "DeviceRadixSortInitKernel<" + sel + "int, int>",
                   ns + "DeviceRadixSortOnesweepKernel<" + sel + order + kvo + ", int, int>"};
  } else {
    auto up = [&](const char* alt) {
      return ns + "DeviceRadixSortUpsweepKernel<" + sel + alt + order + key + ", " + offset + ">";
    };
    auto down = [&](const char* alt) {
      return ns + "DeviceRadixSortDownsweepKernel<" + sel + alt + order + kvo + ">";
    };
    out.kernels = {single,      up("false, "),   up("true, "),
                   ns + "RadixSortScanBinsKernel<" + sel + offset + ">",
                   down("false, "), down("true, ")};
    // The upsweep agent's device code holds an unannotated generic lambda
    // (cuda::static_for), which NVRTC takes for host code unless told otherwise.
    out.nvrtc_options = {"-default-device"};
  }
  if (materialize) out.kernels.push_back(algos::detail::materialize_kernel(spec.value_type.scalar));
  // Values in Policy's field order.
  std::string probe =
      "(unsigned long long)(cccl_cache_policy::p.algorithm == cub::RadixSortAlgorithm::onesweep)";
  for (std::string_view path : {CCCL_CACHE_RADIX_SORT_POLICY(CCCL_CACHE_POLICY_PATH)})
    probe += ", cccl_cache_policy::p." + std::string(path);
  out.policy_probe = std::string(algos::detail::kPolicyProbeName) + "<" + probe + ">";
  return out;
}

}  // namespace cccl_cache::algos::radix_sort::detail

namespace cccl_cache::algos {
// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<RadixSort, radix_sort::Spec>;
}  // namespace cccl_cache::algos
