#include "for_each/codegen.hpp"

#include <string>
#include <vector>

#include "core/codegen.hpp"

namespace cccl_cache::algos {

for_each::detail::WrapperLayout for_each::detail::wrapper_layout(const Spec& spec) noexcept {
  // An array is a T* (8 bytes); an iterator its packed struct; an empty operator one byte.
  const algos::detail::ArgumentExtent members[2] = {
      spec.input.is_pointer() ? algos::detail::ArgumentExtent{8, 8}
                              : algos::detail::argument_extent(spec.input, spec.type.scalar),
      spec.op.stateful() ? algos::detail::ArgumentExtent{spec.op.state_size, spec.op.state_alignment}
                         : algos::detail::ArgumentExtent{1, 1}};
  std::size_t at[2] = {};
  const auto extent = algos::detail::natural_layout(members, at);
  return {extent, members[0], members[1], at[1]};
}

detail::GeneratedSource detail::BuildSteps<ForEach>::source(const for_each::Spec& spec) {
  const std::string offset(cuda_name(spec.offset_type));
  detail::GeneratedSource out;
  out.source = detail::prelude("cub/device/dispatch/kernels/kernel_for_each.cuh",
                               {spec.type.scalar, spec.input.type});
  out.source += detail::struct_source({&spec.type});
  out.source += detail::user_source(spec.op);
  std::vector<const Operator*> defined = {&spec.op};
  // An array's int64 / uint64 items as (unsigned) long long, NVRTC's int64_t: the operator
  // takes a reference to them as users write it (long long&, int64_t&); no host dispatch is
  // instantiated over the type, whose LP64 spelling (long) is another type to a reference.
  std::string array = std::string(cuda_name(spec.type)) + "*";
  if (spec.type == ElementType(ScalarType::int64)) array = "long long*";
  if (spec.type == ElementType(ScalarType::uint64)) array = "unsigned long long*";
  const std::string items = detail::argument_type(out.source, "cccl_cache_in_t", spec.input, spec.type,
                                                  false, false, array, defined);
  // The item is forwarded as the wrapper passes it: an array's element as an lvalue.
  out.source += "struct cccl_cache_op {\n" + detail::state_member(spec.op) +
                "  template <class T>\n  __device__ void operator()(T&& a) const { (void)" +
                spec.op.name + "(" + detail::state_argument(spec.op) +
                "static_cast<T&&>(a)); }\n};\n";
  // DeviceFor::__op_wrapper_t, member for member (its header is host-only to NVRTC):
  // what ForEachN hands the kernel.
  out.source += "struct cccl_cache_wrapper {\n  " + items + " input;\n  cccl_cache_op op;\n"
                "  __device__ __forceinline__ void operator()(" + offset +
                " i) { (void)op(*(input + i)); }\n};\n";
  const auto layout = for_each::detail::wrapper_layout(spec);
  // Members at their natural alignment: these sizes and alignments fix the operator's offset.
  out.source += "static_assert(sizeof(" + items + ") == " + std::to_string(layout.items.size) +
                " && alignof(" + items + ") == " + std::to_string(layout.items.align) +
                " && sizeof(cccl_cache_op) == " + std::to_string(layout.op.size) +
                " && alignof(cccl_cache_op) == " + std::to_string(layout.op.align) +
                " && sizeof(cccl_cache_wrapper) == " + std::to_string(layout.extent.size) +
                " && alignof(cccl_cache_wrapper) == " + std::to_string(layout.extent.align) +
                ", \"for_each: operator argument layout\");\n";
  out.source +=
      "inline constexpr cub::ForPolicy cccl_cache_policy =\n"
      "    cub::detail::select_policy<cub::detail::for_each::policy_selector>("
      "cub::detail::current_tuning_cc());\n";
  out.source += detail::close_prelude();
  // Exactly the kernel DeviceFor::ForEachN(items, num_items, op) launches.
  out.kernels = {"cub::detail::for_each::static_kernel<cub::detail::for_each::policy_selector, " +
                 offset + ", cccl_cache_wrapper>"};
  out.policy_probe = std::string(detail::kPolicyProbeName) +
                     "<(unsigned)cccl_cache_policy.threads_per_block, "
                     "(unsigned)cccl_cache_policy.items_per_thread>";
  return out;
}

// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<ForEach, for_each::Spec>;

}  // namespace cccl_cache::algos
