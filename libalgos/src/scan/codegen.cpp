#include "scan/codegen.hpp"

#include <string>

#include "core/accumulator.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

template <AlgorithmId Id>
detail::GeneratedSource detail::BuildSteps<Scan<Id>>::source(const scan::Spec<Id>& spec) {
  const std::string t{cuda_name(spec.type)};
  algos::detail::GeneratedSource out;
  // CUB's kernel header includes its tuning header (the policy selector) itself.
  out.source = algos::detail::prelude("cub/device/dispatch/kernels/kernel_scan.cuh",
                                      {spec.type.scalar, spec.input.type, spec.output.type});
  out.source += algos::detail::struct_source({&spec.type});
  out.source += algos::detail::user_source(spec.op);
  out.source += "\nusing cccl_cache_t = " + t + ";\nusing cccl_cache_offset_t = " +
                std::string(cuda_name(spec.offset_type)) + ";\n";
  // Iterators take the place of the T arrays wherever the kernels read or write them, and
  // in the policy selector (CUB tunes a scan of a non-contiguous input as look-back).
  const auto [in, out_it] = algos::detail::iterator_types(out.source, spec.input, spec.output,
                                                          spec.op, spec.type, "cccl_cache_t*");
  // A scalar operator's result converts to the item type; over structs the operator must
  // return the struct (no conversion: C++20 would make a struct of a number's first field).
  out.source += algos::detail::operator_type("cccl_cache_op", spec.op, 2,
                                             spec.type.is_struct() ? "" : "cccl_cache_t", spec.type.scalar);
  // CUB's accumulator (as cub::DeviceScan derives it for T input and T init), its default
  // selector for DeviceScan over T* with it (no stable reduction order, as the stream
  // overloads), and the policy it gives the kernels at the CC being compiled for.
  out.source += algos::detail::accumulator_source("cccl_cache_op", "cccl_cache_t", "cccl_cache_t");
  out.source +=
      "using cccl_cache_selector = cub::detail::scan::policy_selector_from_types<\n"
      "    " + in + ", " + out_it + ", cccl_cache_accum_t, cccl_cache_offset_t, cccl_cache_op>;\n"
      "inline constexpr cub::ScanPolicy cccl_cache_policy =\n"
      "    cccl_cache_selector{}(cub::detail::current_tuning_cc());\n"
      "inline constexpr bool cccl_cache_lookahead =\n"
      "    cccl_cache_policy.algorithm == cub::ScanAlgorithm::lookahead;\n";
  out.source += algos::detail::close_prelude();

  // An initial value: the exclusive scan's, or a seeded inclusive scan's, which CUB's
  // InclusiveScanInit compiles with ForceInclusive.
  const std::string init = spec.takes_init() ? "cub::detail::InputValue<cccl_cache_t>" : "cub::NullType";
  const std::string force_inclusive = spec.init ? "true" : "false";
  const std::string common =
      "cccl_cache_selector, " + in + ", " + out_it + ", cub::ScanTileState<cccl_cache_accum_t>, ";
  // In Kernel order (build_result.hpp).
  out.kernels = {
      "cub::detail::scan::DeviceScanInitKernel<" + common + "cccl_cache_accum_t>",
      "cub::detail::scan::DeviceScanKernel<" + common + "cccl_cache_op, " + init +
          ", cccl_cache_offset_t, cccl_cache_accum_t, " + force_inclusive + ", false>"};
  // Values in Policy's field order; stage counts are ints (two's complement).
  out.policy_probe =
      std::string(algos::detail::kPolicyProbeName) +
      "<(unsigned)cccl_cache_policy.algorithm, "
      "cub::detail::scan::device_scan_launch_bounds<cccl_cache_selector>, "
      "cccl_cache_lookahead ? cccl_cache_policy.lookahead.items_per_thread "
      ": cccl_cache_policy.lookback.items_per_thread, "
      "cccl_cache_policy.lookahead.reduce_and_scan_warps, "
      "cccl_cache_policy.lookahead.lookahead_items_per_thread, "
      "(unsigned)cccl_cache_policy.lookahead.lookahead_stages, "
      "(unsigned)cccl_cache_policy.lookahead.block_idx_stages, " +
      std::string(algos::detail::kAccumulatorProbe) + ">";
  return out;
}

template <AlgorithmId Id>
Result<void> detail::BuildSteps<Scan<Id>>::accept(const scan::Spec<Id>& spec,
                                                  const scan::Policy& policy) {
  CCCL_CACHE_CHECK(algos::detail::accept_accumulator(algorithm_name(Id), policy.accum_size,
                                                     policy.accum_align, spec.type));
  // A struct's host stand-in is laid out for the look-back scan's arguments; the
  // look-ahead scan sizes shared memory from its alignment, which may not be the struct's.
  if (spec.type.is_struct() && policy.algorithm != 0)
    return fail(ErrorCode::unsupported,
                std::string(algorithm_name(Id)) + ": CUB's look-ahead scan (its tuning from CC 10.0) "
                "of struct items is not supported: build for a CC below 10.0");
  return {};
}

template struct detail::BuildSteps<InclusiveScan>;
template struct detail::BuildSteps<ExclusiveScan>;
// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<InclusiveScan, scan::InclusiveSpec>;
template struct AlgorithmBase<ExclusiveScan, scan::ExclusiveSpec>;
}  // namespace cccl_cache::algos
