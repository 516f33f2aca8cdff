#include "segmented_reduce/codegen.hpp"

#include <string>
#include <vector>

#include "core/accumulator.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<SegmentedReduce>::source(
    const segmented_reduce::Spec& spec) {
  const std::string t{cuda_name(spec.type)};
  const std::string offset{cuda_name(spec.offset_type)};

  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/kernels/kernel_segmented_reduce.cuh",
                               {spec.type.scalar, spec.input.type, spec.output.type});
  out.source += detail::struct_source({&spec.type});
  out.source += detail::user_source(spec.op);
  out.source += "\nusing cccl_cache_t = " + t + ";\nusing cccl_cache_offset_t = " + offset + ";\n";
  // Iterators take the place of the arrays: all four arguments where any is one (the
  // host dispatch is instantiated for all arrays or all iterators).
  const bool all = spec.iterators();
  std::vector<const Operator*> defined = {&spec.op};
  const std::string in = detail::argument_type(out.source, "cccl_cache_in_t", spec.input, spec.type,
                                               false, all, t + "*", defined);
  const std::string out_it = detail::argument_type(out.source, "cccl_cache_out_t", spec.output,
                                                   spec.type, true, all, t + "*", defined);
  const std::string begin =
      detail::argument_type(out.source, "cccl_cache_begin_t", spec.begin_offsets, spec.offset_type,
                            false, all, offset + "*", defined);
  const std::string end =
      detail::argument_type(out.source, "cccl_cache_end_t", spec.end_offsets, spec.offset_type,
                            false, all, offset + "*", defined);
  out.source += detail::operator_type("cccl_cache_op", spec.op, 2, {}, spec.type.scalar);
  // As cub::detail::segmented_reduce::dispatch derives them for
  // DeviceSegmentedReduce::Reduce(T*, T*, n, offset*, offset*, op, T init): the
  // accumulator and the policy selector over it. The host dispatch launches the kernel
  // with the block's thread count on every path.
  out.source += detail::accumulator_source("cccl_cache_op", "cccl_cache_t", "cccl_cache_t");
  out.source +=
      "using cccl_cache_selector = cub::detail::segmented_reduce::policy_selector_from_types<\n"
      "    cccl_cache_accum_t, cccl_cache_offset_t, cccl_cache_op>;\n"
      "constexpr cub::SegmentedReducePolicy cccl_cache_policy =\n"
      "    cub::detail::select_policy<cccl_cache_selector>(cub::detail::current_tuning_cc());\n"
      "static_assert(cccl_cache_policy.medium_reduce.threads_per_block ==\n"
      "                  cccl_cache_policy.large_reduce.threads_per_block &&\n"
      "              cccl_cache_policy.small_reduce.threads_per_block ==\n"
      "                  cccl_cache_policy.large_reduce.threads_per_block);\n";
  out.source += detail::close_prelude();

  out.kernels = {
      "cub::detail::segmented_reduce::DeviceSegmentedReduceKernel<cccl_cache_selector, " + in +
      ", " + out_it + ", " + begin + ", " + end + ", " + offset + ", cccl_cache_op, " + t +
      ", cccl_cache_accum_t>"};
  // The kernel's generic lambda (the warp paths) is unannotated: device code only with it.
  out.nvrtc_options = {"-default-device"};
  out.policy_probe = std::string(detail::kPolicyProbeName) +
                     "<cccl_cache_policy.large_reduce.threads_per_block, "
                     "cccl_cache_policy.large_reduce.items_per_thread, "
                     "cccl_cache_policy.medium_reduce.threads_per_warp, "
                     "cccl_cache_policy.medium_reduce.items_per_thread, "
                     "cccl_cache_policy.small_reduce.threads_per_warp, "
                     "cccl_cache_policy.small_reduce.items_per_thread>";
  return out;
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<SegmentedReduce, segmented_reduce::Spec>;

}  // namespace cccl_cache::algos
