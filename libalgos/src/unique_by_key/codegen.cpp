#include "unique_by_key/codegen.hpp"

#include <string>
#include <vector>

#include "core/agent_select.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<UniqueByKey>::source(const unique_by_key::Spec& spec) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value{cuda_name(spec.value_type)};
  // CUB's offset for 8-byte counts is unsigned long long (choose_offset_t), which the
  // host dispatch instantiates too.
  const std::string offset = spec.offset_type == ScalarType::uint64
                                 ? std::string("unsigned long long")
                                 : std::string(cuda_name(spec.offset_type));
  const std::string selected{cuda_name(spec.selected_type)};

  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/kernels/kernel_unique_by_key.cuh",
                               {spec.key_type.scalar, spec.value_type.scalar, spec.keys_in.type,
                                spec.values_in.type, spec.keys_out.type, spec.values_out.type});
  // The init kernel (tile states, the count set to 0) is the scan header's.
  out.source += "#include <cub/device/dispatch/kernels/kernel_scan.cuh>\n";
  out.source += detail::struct_source({&spec.key_type, &spec.value_type});
  out.source += detail::user_source(spec.op);
  out.source += "\nusing cccl_cache_key_t = " + key + ";\nusing cccl_cache_value_t = " + value +
                ";\nusing cccl_cache_offset_t = " + offset + ";\n";
  // Iterators take the place of the arrays: all four arguments where any is one (the host
  // dispatch is instantiated for all arrays or all iterators). An array spec's source and
  // kernel names are as they were: its key with them.
  const bool all = spec.iterators();
  std::vector<const Operator*> defined = {&spec.op};
  auto argument = [&](const char* name, const Iterator& it, const ElementType& t, bool output) {
    return detail::argument_type(out.source, name, it, t, output, all,
                                 std::string(cuda_name(t)) + "*", defined);
  };
  const std::string keys_in = argument("cccl_cache_keys_in_t", spec.keys_in, spec.key_type, false);
  const std::string values_in =
      argument("cccl_cache_values_in_t", spec.values_in, spec.value_type, false);
  const std::string keys_out = argument("cccl_cache_keys_out_t", spec.keys_out, spec.key_type, true);
  const std::string values_out =
      argument("cccl_cache_values_out_t", spec.values_out, spec.value_type, true);
  const std::string args = keys_in + ", " + values_in + ", " + keys_out + ", " + values_out;
  out.source += detail::operator_type("cccl_cache_op", spec.op, 2, "bool", spec.key_type.scalar);
  // DeviceSelect::UniqueByKey's default selector, and the policy the sweep kernel
  // resolves with it at the CC being compiled for, after the virtual-shared-memory
  // fallback (for the probe).
  out.source +=
      "using cccl_cache_selector =\n"
      "    cub::detail::unique_by_key::policy_selector_from_types<cccl_cache_key_t, "
      "cccl_cache_value_t>;\n"
      "using cccl_cache_helper = cub::detail::unique_by_key::device_unique_by_key_vsmem_helper_t<\n"
      "    cub::detail::device_policy_getter<cccl_cache_selector, "
      "cub::detail::current_tuning_cc().get()>,\n"
      "    " +
      (all ? args
           : "cccl_cache_key_t*, cccl_cache_value_t*, cccl_cache_key_t*, cccl_cache_value_t*") +
      ",\n"
      "    cccl_cache_op, cccl_cache_offset_t>;\n";
  out.source += detail::close_prelude();

  // Exactly the kernels cub::detail::unique_by_key::dispatch launches for
  // DeviceSelect::UniqueByKey(keys in, values in, keys out, values out, S*, num_items,
  // op): in Kernel order.
  const std::string tile_state = "cub::ScanTileState<" + offset + ">";
  out.kernels = {
      "cub::detail::scan::DeviceCompactInitKernel<" + tile_state + ", " + selected + "*>",
      "cub::detail::unique_by_key::DeviceUniqueByKeySweepKernel<cccl_cache_selector, " + args +
          ", " + selected + "*, " + tile_state +
          ", cccl_cache_op, " + offset + ">"};
  out.policy_probe =
      std::string(detail::kPolicyProbeName) +
      "<cccl_cache_helper::policy.threads_per_block, cccl_cache_helper::policy.items_per_thread, "
      "cub::detail::vsmem_helper_impl<cccl_cache_helper::agent_t>::vsmem_per_block>";
  return out;
}

Result<void> detail::BuildSteps<UniqueByKey>::accept(const unique_by_key::Policy& policy) {
  return detail::accept_agent_select("unique_by_key", policy);
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<UniqueByKey, unique_by_key::Spec>;

}  // namespace cccl_cache::algos
