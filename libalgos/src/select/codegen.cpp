#include "select/codegen.hpp"

#include <string>

#include "core/agent_select.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos {

detail::GeneratedSource detail::BuildSteps<Select>::source(const select::Spec& spec) {
  const std::string item{cuda_name(spec.type)};
  // DeviceSelect::If's count: ::cuda::std::int64_t as nvcc's host compile spells it
  // (cuda_name: the host's std::int64_t).
  const std::string offset{cuda_name(spec.offset_type)};
  const std::string selected{cuda_name(spec.selected_type)};

  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/dispatch_select_if.cuh",
                               {spec.type.scalar, spec.input.type, spec.output.type});
  // The init kernel (tile states, the count set to 0) is the scan header's.
  out.source += "#include <cub/device/dispatch/kernels/kernel_scan.cuh>\n";
  out.source += detail::struct_source({&spec.type});
  out.source += detail::user_source(spec.op);
  out.source += "\nusing cccl_cache_item_t = " + item + ";\n";
  // Iterators take the place of the item arrays in the sweep kernel and its selector (an
  // array spec's source and kernel name are as they were: its key with them).
  const auto [in, out_it] = detail::iterator_types(out.source, spec.input, spec.output, spec.op,
                                                   spec.type, "cccl_cache_item_t*");
  const std::string kernel_in = spec.input.is_pointer() ? item + "*" : in;
  const std::string kernel_out = spec.output.is_pointer() ? item + "*" : out_it;
  out.source += detail::operator_type("cccl_cache_op", spec.op, 1, "bool", spec.type.scalar);
  // DeviceSelect::If's default selector over (T*, no flags, T*, int64), its streaming
  // context (per-partition int offsets under an int64 total), and the policy the sweep
  // kernel resolves with them at the CC being compiled for, after the
  // virtual-shared-memory fallback (for the probe).
  out.source +=
      "using cccl_cache_selector = cub::detail::select::policy_selector_from_types<\n"
      "    " +
      in + ", cub::NullType*, " + out_it + ", " + offset +
      ", cub::SelectImpl::Select>;\n"
      "using cccl_cache_context = cub::detail::select::streaming_context_t<" +
      offset +
      ", true>;\n"
      "using cccl_cache_helper = typename cub::detail::select::make_vsmem_helper<\n"
      "    cub::detail::device_policy_getter<cccl_cache_selector, "
      "cub::detail::current_tuning_cc().get()>,\n"
      "    cub::SelectImpl::Select, " +
      in + ", cub::NullType*, " + out_it +
      ",\n"
      "    cccl_cache_op, cub::NullType, cub::detail::select::per_partition_offset_t,\n"
      "    cccl_cache_context>::type;\n";
  out.source += detail::close_prelude();

  // Exactly the kernels cub::detail::select::dispatch launches for
  // DeviceSelect::If(T*, T*, S*, num_items, op): in Kernel order.
  const std::string tile_state = "cub::ScanTileState<int>";
  out.kernels = {
      "cub::detail::scan::DeviceCompactInitKernel<" + tile_state + ", " + selected + "*>",
      "cub::detail::select::DeviceSelectSweepKernel<cccl_cache_selector, " + kernel_in +
          ", cub::NullType*, " + kernel_out + ", " + selected + "*, " + tile_state +
          ", cccl_cache_op, cub::NullType, int, cub::detail::select::streaming_context_t<" +
          offset + ", true>, cub::SelectImpl::Select>"};
  // CCCL 3.5 defines DeviceSelectSweepKernel in its host dispatch header only, which
  // NVRTC cannot take as it is: its runtime functions become device functions (never
  // instantiated here), the default launcher factory (host only) a placeholder type, the
  // driver API's typedefs (cuda.h needs the C library) are skipped, and the tuning
  // header's unannotated constexpr helpers are device functions (-default-device). The
  // kernels' own code is what nvcc compiles.
  out.nvrtc_options = {"-default-device", "-DCUB_RUNTIME_FUNCTION=__device__",
                       "-DCUB_DETAIL_DEFAULT_KERNEL_LAUNCHER_FACTORY=void", "-DCUDATYPEDEFS_H"};
  out.policy_probe = std::string(detail::kPolicyProbeName) +
                     "<cccl_cache_helper::agent_policy_t::BLOCK_THREADS, "
                     "cccl_cache_helper::agent_policy_t::ITEMS_PER_THREAD, "
                     "cccl_cache_helper::vsmem_per_block>";
  return out;
}

Result<void> detail::BuildSteps<Select>::accept(const select::Policy& policy) {
  return detail::accept_agent_select("select", policy);
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<Select, select::Spec>;

}  // namespace cccl_cache::algos
