#include "merge_sort/codegen.hpp"

namespace cccl_cache::algos::merge_sort::detail {
namespace {

// CUB 3.0.1's tuning header declares MergeSortPolicyWrapper with
// CUB_RUNTIME_FUNCTION (= __host__ without RDC), which NVRTC rejects, and a
// sub-policy getter built on PolicyWrapper, which CUB hides from NVRTC. We need
// only its policy_hub (the tuning table the host dispatch uses too), so the
// wrapper is made host-device and the getter empty while that header is read.
// The kernel header comes first, so the kernels see CUB's own macros.
constexpr std::string_view kPrelude = R"(#include <cuda_device_runtime_api.h>
#include <cub/device/dispatch/kernels/merge_sort.cuh>
#undef CUB_RUNTIME_FUNCTION
#define CUB_RUNTIME_FUNCTION __host__ __device__
#undef CUB_DEFINE_SUB_POLICY_GETTER
#define CUB_DEFINE_SUB_POLICY_GETTER(name)
#include <cub/device/dispatch/tuning/tuning_merge_sort.cuh>
#undef CUB_RUNTIME_FUNCTION
#define CUB_RUNTIME_FUNCTION __host__
)";

std::string comparator_body(const Comparator& c) {
  switch (c.kind) {
    case ComparatorKind::less:
      return "return a < b;";
    case ComparatorKind::greater:
      return "return b < a;";
    case ComparatorKind::custom:
      return "return static_cast<bool>(" + c.name + "(a, b));";
  }
  return "";
}

}  // namespace

algos::detail::GeneratedSource generate_source(const Spec& spec) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value =
      spec.keys_only() ? "cub::NullType" : std::string(cuda_name(spec.value_type));
  const std::string offset{cuda_name(spec.offset_type)};

  algos::detail::GeneratedSource out;
  out.source = kPrelude;
  out.source += algos::detail::kPolicyProbeDecl;
  if (spec.comparator.kind == ComparatorKind::custom) {
    out.source += "\n// user comparator " + spec.comparator.name + "\n#line 1 \"comparator\"\n";
    out.source += spec.comparator.source + "\n#line 1 \"generated\"\n";
  }
  out.source += "\nusing cccl_cache_key_t = " + key + ";\nusing cccl_cache_value_t = " + value +
                ";\nusing cccl_cache_offset_t = " + offset + ";\n";
  out.source +=
      "struct cccl_cache_compare {\n  __device__ bool operator()(const cccl_cache_key_t& a, "
      "const cccl_cache_key_t& b) const { " +
      comparator_body(spec.comparator) + " }\n};\n";
  out.source +=
      "using cccl_cache_max_policy = "
      "cub::detail::merge_sort::policy_hub<cccl_cache_key_t*>::MaxPolicy;\n"
      "using cccl_cache_helper = cub::detail::merge_sort::merge_sort_vsmem_helper_t<\n"
      "    cccl_cache_max_policy::ActivePolicy::MergeSortPolicy, cccl_cache_key_t*, "
      "cccl_cache_value_t*,\n"
      "    cccl_cache_key_t*, cccl_cache_value_t*, cccl_cache_offset_t, cccl_cache_compare, "
      "cccl_cache_key_t,\n"
      "    cccl_cache_value_t>;\n";

  // Exactly DispatchMergeSort<KeyT*, ValueT*, KeyT*, ValueT*, OffsetT, Compare>'s kernels
  // (ValueT = cub::NullType for keys-only, as DeviceMergeSort::SortKeys does).
  const std::string iters = key + "*, " + value + "*, " + key + "*, " + value + "*, " + offset +
                            ", cccl_cache_compare, " + key + ", " + value;
  // In Kernel order (build_result.hpp).
  out.kernels = {
      "cub::detail::merge_sort::DeviceMergeSortBlockSortKernel<cccl_cache_max_policy, " + iters +
          ">",
      "cub::detail::merge_sort::DeviceMergeSortPartitionKernel<" + key + "*, " + offset +
          ", cccl_cache_compare, " + key + ">",
      "cub::detail::merge_sort::DeviceMergeSortMergeKernel<cccl_cache_max_policy, " + iters + ">"};
  // Values in Policy's field order.
  out.policy_probe =
      std::string(algos::detail::kPolicyProbeName) +
          "<cccl_cache_helper::policy_t::BLOCK_THREADS, "
          "cccl_cache_helper::policy_t::ITEMS_PER_TILE, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::block_sort_agent_t>::vsmem_per_block, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::merge_agent_t>::vsmem_per_block>";
  return out;
}

}  // namespace cccl_cache::algos::merge_sort::detail
