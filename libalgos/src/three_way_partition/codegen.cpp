#include "three_way_partition/codegen.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {
namespace {

// A predicate as a function object returning bool: the agent converts its result to an
// int offset, so identity (where CUB's own ::cuda::std::identity would return the item:
// 0.5f or 2^32 as 0) converts the item to bool first.
std::string predicate(std::string_view name, const Operator& op) {
  if (op.kind == OpKind::custom) return detail::operator_struct(name, op, 1, "bool");
  return "struct " + std::string(name) +
         " {\n  template <class T>\n  __device__ bool operator()(const T& a) const { return "
         "static_cast<bool>(a); }\n};\n";
}

}  // namespace

detail::GeneratedSource detail::BuildSteps<ThreeWayPartition>::source(
    const three_way_partition::Spec& spec) {
  const std::string item{cuda_name(spec.type)};
  // DevicePartition::If's count: int or ::cuda::std::int64_t as nvcc's host compile
  // spells it (cuda_name: the host's std::int64_t).
  const std::string offset{cuda_name(spec.offset_type)};
  const std::string selected{cuda_name(spec.selected_type)};
  const std::string ns = "cub::detail::three_way_partition::";

  detail::GeneratedSource out;
  out.source = detail::prelude(
      "cub/device/dispatch/kernels/kernel_three_way_partition.cuh",
      {spec.type.scalar, spec.input.type, spec.first_output.type, spec.second_output.type,
       spec.unselected_output.type});
  out.source += detail::struct_source({&spec.type});
  out.source += detail::user_source(spec.first_op);
  out.source += detail::user_source(spec.second_op);
  out.source += "\nusing cccl_cache_item_t = " + item + ";\n";
  // Iterators take the place of the arrays: all four arguments where any is one (the host
  // dispatch is instantiated for all arrays or all iterators). An array spec's source and
  // kernel names are as they were: its key with them.
  const bool all = spec.iterators();
  std::vector<const Operator*> defined = {&spec.first_op, &spec.second_op};
  const std::string array = item + "*";
  auto argument = [&](const char* name, const Iterator& it, bool output) {
    return detail::argument_type(out.source, name, it, spec.type, output, all, array, defined);
  };
  const std::string in = argument("cccl_cache_in_t", spec.input, false);
  const std::string first = argument("cccl_cache_first_out_t", spec.first_output, true);
  const std::string second = argument("cccl_cache_second_out_t", spec.second_output, true);
  const std::string rest = argument("cccl_cache_unselected_out_t", spec.unselected_output, true);
  out.source += predicate("cccl_cache_first", spec.first_op);
  out.source += predicate("cccl_cache_second", spec.second_op);
  // DevicePartition::If's default selector (the item type, int per-partition offsets)
  // and the policy the partition kernel resolves with it at the CC being compiled for.
  out.source += "using cccl_cache_selector = " + ns +
                "policy_selector_from_types<cccl_cache_item_t, " + ns + "per_partition_offset_t>;\n" +
                "constexpr cub::ThreeWayPartitionPolicy cccl_cache_policy =\n"
                "    cub::detail::select_policy<cccl_cache_selector>(cub::detail::current_tuning_cc());\n";
  out.source += detail::close_prelude();

  // Exactly the kernels cub::detail::three_way_partition::dispatch launches for
  // DevicePartition::If(in, first, second, unselected, S*, num_items, op1, op2): in
  // Kernel order.
  out.kernels = {
      ns + "DeviceThreeWayPartitionInitKernel<" + ns + "ScanTileStateT, " + selected + "*>",
      ns + "DeviceThreeWayPartitionKernel<cccl_cache_selector, " + in + ", " + first + ", " +
          second + ", " + rest + ", " + selected + "*, " + ns + "ScanTileStateT, cccl_cache_first, " +
          "cccl_cache_second, " + ns + "per_partition_offset_t, " + ns + "streaming_context_t<" +
          offset + ">>"};
  std::string probe;
  for (std::string_view path : {CCCL_CACHE_THREE_WAY_PARTITION_POLICY(CCCL_CACHE_POLICY_PATH)})
    probe += std::string(probe.empty() ? "" : ", ") + "cccl_cache_policy." + std::string(path);
  out.policy_probe = std::string(detail::kPolicyProbeName) + "<" + probe + ">";
  return out;
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<ThreeWayPartition, three_way_partition::Spec>;

}  // namespace cccl_cache::algos
