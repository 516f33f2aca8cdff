#include "reduce/codegen.hpp"

#include <string>

#include "core/accumulator.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<Reduce>::source(const reduce::Spec& spec) {
  const std::string t{cuda_name(spec.type)};
  // The offset types DeviceReduce's choose_offset_t names (unsigned long long, not
  // uint64_t's unsigned long): the same kernels as CUB's own, by name too.
  const std::string offset =
      spec.offset_type == ScalarType::uint32 ? "unsigned int" : "unsigned long long";

  algos::detail::GeneratedSource out;
  out.source = algos::detail::prelude("cub/device/dispatch/kernels/kernel_reduce.cuh",
                                      {spec.type.scalar, spec.input.type, spec.output.type});
  out.source += algos::detail::struct_source({&spec.type});
  out.source += algos::detail::user_source(spec.op);
  out.source += "\nusing cccl_cache_t = " + t + ";\nusing cccl_cache_offset_t = " + offset + ";\n";
  // Iterators take the place of the T arrays in the kernels reading the input and writing
  // the result.
  const auto [in, out_it] = algos::detail::iterator_types(out.source, spec.input, spec.output,
                                                          spec.op, spec.type, t + "*");
  out.source += algos::detail::operator_type("cccl_cache_op", spec.op, 2, {}, spec.type.scalar);
  // As cub::detail::reduce::dispatch derives them for DeviceReduce::Reduce(T*, T*,
  // num_items, op, T init): the accumulator, and the default (run-to-run
  // deterministic) policy selector over it.
  out.source += algos::detail::accumulator_source("cccl_cache_op", "cccl_cache_t", "cccl_cache_t");
  out.source +=
      "using cccl_cache_selector = cub::detail::reduce::policy_selector_from_types<\n"
      "    cccl_cache_accum_t, cccl_cache_offset_t, cccl_cache_op>;\n"
      "struct cccl_cache_single_tile : cccl_cache_selector {};\n"
      "struct cccl_cache_first_pass : cccl_cache_selector {};\n"
      "struct cccl_cache_second_pass : cccl_cache_selector {};\n"
      "constexpr cub::ReducePolicy cccl_cache_policy =\n"
      "    cub::detail::select_policy<cccl_cache_selector>(cub::detail::current_tuning_cc());\n";
  out.source += algos::detail::close_prelude();

  // What DeviceReduceKernelSource names for StableReductionOrder and an immediate
  // num_items (KernelNumItemsT = OffsetT); the second pass always has int offsets.
  const std::string ns = "cub::detail::reduce::";
  const std::string tail = ", cccl_cache_op, " + t + ", cccl_cache_accum_t, ::cuda::std::identity>";
  out.kernels = {ns + "DeviceReduceSingleTileKernel<cccl_cache_single_tile, " + in + ", " + out_it +
                     ", " + offset + tail,
                 ns + "DeviceReduceKernel<cccl_cache_first_pass, true, " + in +
                     ", cccl_cache_accum_t*, " + offset + ", " + offset +
                     ", cccl_cache_op, cccl_cache_accum_t, " + t + ", ::cuda::std::identity>",
                 ns + "DeviceReduceSingleTileKernel<cccl_cache_second_pass, cccl_cache_accum_t*, " +
                     out_it + ", int" + tail};
  out.policy_probe = std::string(algos::detail::kPolicyProbeName) +
                     "<cccl_cache_policy.multi_tile.threads_per_block, "
                     "cccl_cache_policy.multi_tile.items_per_thread, "
                     "cccl_cache_policy.single_tile.threads_per_block, "
                     "cccl_cache_policy.single_tile.items_per_thread, " +
                     std::string(algos::detail::kAccumulatorProbe) + ">";
  return out;
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<Reduce, reduce::Spec>;

Result<void> detail::BuildSteps<Reduce>::accept(const reduce::Spec& spec,
                                                const reduce::Policy& policy) {
  return algos::detail::accept_accumulator("reduce", policy.accum_size, policy.accum_align, spec.type);
}

}  // namespace cccl_cache::algos
