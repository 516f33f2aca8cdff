#include "scan_by_key/codegen.hpp"

#include <string>
#include <vector>

#include "core/accumulator.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<ScanByKey>::source(const scan_by_key::Spec& spec) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value{cuda_name(spec.value_type)};
  // CUB's offset for 8-byte counts is unsigned long long (choose_offset_t).
  const std::string offset = spec.offset_type == ScalarType::uint64
                                 ? std::string("unsigned long long")
                                 : std::string(cuda_name(spec.offset_type));
  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/dispatch_scan_by_key.cuh",
                               {spec.key_type.scalar, spec.value_type.scalar, spec.keys_in.type,
                                spec.values_in.type, spec.values_out.type});
  out.source += detail::struct_source({&spec.key_type, &spec.value_type});
  out.source += detail::user_source(spec.equality);
  out.source += detail::user_source(spec.op);
  out.source += "\nusing cccl_cache_key_t = " + key + ";\nusing cccl_cache_value_t = " + value +
                ";\nusing cccl_cache_offset_t = " + offset + ";\n";
  // Iterators take the place of the arrays: all three arguments where any is one (the
  // host dispatch is instantiated for all arrays or all iterators). An array spec's
  // source and kernel names are as they were: its key with them.
  std::vector<const Operator*> defined = {&spec.equality, &spec.op};
  auto argument = [&](const char* name, const Iterator& it, const ElementType& t, bool output) {
    return detail::argument_type(out.source, name, it, t, output, spec.iterators(),
                                 std::string(cuda_name(t)) + "*", defined);
  };
  const std::string keys_in = argument("cccl_cache_keys_in_t", spec.keys_in, spec.key_type, false);
  const std::string values_in =
      argument("cccl_cache_values_in_t", spec.values_in, spec.value_type, false);
  const std::string values_out =
      argument("cccl_cache_values_out_t", spec.values_out, spec.value_type, true);
  out.source += detail::operator_type("cccl_cache_eq", spec.equality, 2, "bool", spec.key_type.scalar);
  // A scalar operator's result converts to the value type; over struct values the operator
  // must return the struct (no conversion: C++20 would make a struct of a number's first
  // field), which accept() checks.
  out.source += detail::operator_type("cccl_cache_op", spec.op, 2,
                                      spec.value_type.is_struct() ? "" : "cccl_cache_value_t",
                                      spec.value_type.scalar);
  // CUB's accumulator A (as DeviceScan::*ScanByKey derives it for V values and V init),
  // DeviceScan's scan-by-key selector for keys K, A and values V, and the policy it gives
  // the kernel at the CC being compiled for.
  out.source += detail::accumulator_source("cccl_cache_op", "cccl_cache_value_t", "cccl_cache_value_t");
  out.source +=
      "using cccl_cache_selector = cub::detail::scan_by_key::policy_selector_from_types<\n"
      "    cccl_cache_key_t, cccl_cache_accum_t, cccl_cache_value_t, cccl_cache_op>;\n"
      "inline constexpr cub::ScanByKeyPolicy cccl_cache_policy =\n"
      "    cccl_cache_selector{}(cub::detail::current_tuning_cc());\n";
  out.source += detail::close_prelude();

  const std::string tile_state = "cub::ReduceByKeyScanTileState<cccl_cache_accum_t, int>";
  const std::string init = spec.exclusive ? value : std::string("cub::NullType");
  // Exactly the kernels cub::detail::scan_by_key::dispatch launches for
  // DeviceScan::*ScanByKey(keys in, values in, values out, op, [init,] num_items, eq): in
  // Kernel order.
  out.kernels = {
      "cub::detail::scan_by_key::DeviceScanByKeyInitKernel<" + tile_state + ", " + keys_in +
          ", " + offset + ">",
      "cub::detail::scan_by_key::DeviceScanByKeyKernel<cccl_cache_selector, " + keys_in + ", " +
          values_in + ", " + values_out + ", " + tile_state + ", cccl_cache_eq, cccl_cache_op, " +
          init + ", " + offset + ", cccl_cache_accum_t>"};
  // CCCL 3.5 defines the scan-by-key kernels in its host dispatch header only: NVRTC takes
  // it as select's codegen does (its runtime functions device functions never
  // instantiated, the default launcher factory a placeholder, cuda.h's typedefs skipped,
  // unannotated constexpr helpers device functions).
  out.nvrtc_options = {"-default-device", "-DCUB_RUNTIME_FUNCTION=__device__",
                       "-DCUB_DETAIL_DEFAULT_KERNEL_LAUNCHER_FACTORY=void", "-DCUDATYPEDEFS_H"};
  // Values in Policy's field order.
  out.policy_probe = std::string(detail::kPolicyProbeName) +
                     "<(unsigned)cccl_cache_policy.lookback.threads_per_block, "
                     "(unsigned)cccl_cache_policy.lookback.items_per_thread, " +
                     std::string(detail::kAccumulatorProbe) + ">";
  return out;
}

Result<void> detail::BuildSteps<ScanByKey>::accept(const scan_by_key::Spec& spec,
                                                   const scan_by_key::Policy& policy) {
  return algos::detail::accept_accumulator("scan_by_key", policy.accum_size, policy.accum_align,
                                           spec.value_type);
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<ScanByKey, scan_by_key::Spec>;

}  // namespace cccl_cache::algos
