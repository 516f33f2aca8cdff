#include "histogram_even/codegen.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<HistogramEven>::source(
    const histogram_even::Spec& spec) {
  const std::string sample{cuda_name(spec.type)};
  const std::string level{cuda_name(spec.levels())};
  // CUDA's atomicAdd takes unsigned long long, not the host's unsigned long.
  const std::string counter = spec.counter_type == ScalarType::uint64
                                  ? "unsigned long long"
                                  : std::string(cuda_name(spec.counter_type));
  // The count as nvcc's host compile spells it (cuda_name: int, or the host's std::int64_t).
  const std::string offset{cuda_name(spec.offset_type)};
  const std::string ns = "cub::detail::histogram::";
  const std::string transforms = ns + "Transforms<" + level + ", " + offset + ", " + sample + ">::";
  const std::string scale = transforms + "ScaleTransform", pass = transforms + "PassThruTransform";
  const std::string levels = "::cuda::std::array<" + level + ", 1>";

  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/kernels/kernel_histogram.cuh",
                               {spec.type, spec.levels(), spec.samples.type});
  // An iterator takes the samples array's place in the sweep kernels (an array spec's
  // source, kernel names and key are as they were).
  std::vector<const Operator*> defined;
  const std::string samples = detail::argument_type(out.source, "cccl_cache_in_t", spec.samples,
                                                    spec.type, false, false,
                                                    "const " + sample + "*", defined);
  // HistogramEven's default selector (one channel of one, even bins) and the policy its
  // kernels resolve with it at the CC being compiled for.
  out.source +=
      "using cccl_cache_selector = " + ns + "policy_selector_from_types<" + sample + ", " +
      counter + ", 1, 1, true>;\n" +
      "constexpr cub::HistogramPolicy cccl_cache_policy =\n"
      "    cub::detail::select_policy<cccl_cache_selector>(cub::detail::current_tuning_cc());\n";
  out.source += detail::close_prelude();

  // The kernels __dispatch_even_device_init launches for one channel, in Kernel order:
  // samples binned by the scale transform into privatized bins passed through to the
  // output, or for byte samples the 256 values passed through and scaled on output.
  const auto sweep = [&](int smem_bins, const std::string& privatized, const std::string& output) {
    return ns + "DeviceHistogramSweepDeviceInitKernel<cccl_cache_selector, " +
           std::to_string(smem_bins) + ", 1, 1, " + samples + ", " + counter + ", " + levels +
           ", " + levels + ", " + privatized + ", " + output + ", " + offset + ", true>";
  };
  out.kernels = {
      ns + "DeviceHistogramInitKernel<cccl_cache_selector, 1, " + counter + ", " + offset + ">",
      spec.byte_samples() ? sweep(histogram_even::kMaxPrivatizedBins, pass, scale)
                          : sweep(histogram_even::kMaxPrivatizedBins, scale, pass),
      sweep(0, scale, pass)};
  std::string probe;
  for (std::string_view path : {CCCL_CACHE_HISTOGRAM_EVEN_POLICY(CCCL_CACHE_POLICY_PATH)})
    probe += std::string(probe.empty() ? "" : ", ") + "cccl_cache_policy." + std::string(path);
  out.policy_probe = std::string(detail::kPolicyProbeName) + "<" + probe + ">";
  return out;
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<HistogramEven, histogram_even::Spec>;

}  // namespace cccl_cache::algos
