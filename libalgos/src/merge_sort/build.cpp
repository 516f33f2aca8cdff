// MergeSort::build over the core pipeline (core/build.hpp) and what it refuses.
#include "merge_sort/codegen.hpp"

namespace cccl_cache::algos {

std::uint64_t MergeSort::codegen_digest(const Spec& spec) {
  return detail::codegen_digest<MergeSort>(spec);
}
Result<Built<MergeSort>> MergeSort::build(const Spec& spec, std::uint32_t cc) {
  return detail::build<MergeSort>(spec, cc);
}

Result<void> detail::BuildSteps<MergeSort>::accept(const merge_sort::Policy& policy) {
  if (policy.block_sort_vsmem_per_block == 0 && policy.merge_vsmem_per_block == 0) return {};
  return fail(ErrorCode::unsupported,
              "these kernels need virtual shared memory, which CCCL 3.5's merge-sort dispatch "
              "with run-time policies does not allocate");
}

Result<std::vector<std::byte>> merge_sort::detail::build_naive_cubin(const Spec& spec,
                                                                     std::uint32_t cc) {
  if (auto ok = spec.validate(); !ok) return tl::unexpected(ok.error());
  return algos::detail::jit_build_naive(generate_source(spec), "cccl_cache_merge_sort.cu", cc);
}

}  // namespace cccl_cache::algos
