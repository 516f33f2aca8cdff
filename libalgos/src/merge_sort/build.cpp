#include "cccl_cache/algos/merge_sort/build.hpp"

#include <string>

#include "merge_sort/build_detail.hpp"
#include "core/codegen_digest.hpp"
#include "merge_sort/codegen.hpp"

namespace cccl_cache::algos {

namespace {
constexpr std::string_view kProgramName = "cccl_cache_merge_sort.cu";

// The role each kernel has in its mangled name (the record's Kernel order).
constexpr std::string_view kMangledRoles[MergeSort::kKernels] = {
    "DeviceMergeSortBlockSortKernel", "DeviceMergeSortPartitionKernel", "DeviceMergeSortMergeKernel"};
}  // namespace

Result<void> MergeSort::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  if (p.block_threads == 0 || p.block_threads > 1024 || p.items_per_tile == 0 ||
      p.items_per_tile % p.block_threads != 0 || p.items_per_tile > (1u << 20))
    return fail(ErrorCode::corrupt, "implausible merge sort policy (block_threads " +
                                        std::to_string(p.block_threads) + ", items_per_tile " +
                                        std::to_string(p.items_per_tile) + ")");
  for (std::size_t i = 0; i < kKernels; ++i) {
    if (record.kernel_names[i].find(kMangledRoles[i]) == std::string_view::npos)
      return fail(ErrorCode::corrupt, "kernel " + std::to_string(i) + " is not a " +
                                          std::string(kMangledRoles[i]));
  }
  return {};
}

std::uint64_t MergeSort::codegen_digest(const Spec& spec) {
  return detail::codegen_digest(spec, merge_sort::detail::generate_source);
}

Result<Built<MergeSort>> MergeSort::build(const Spec& spec, std::uint32_t cc) {
  return merge_sort::build(spec, cc);
}

namespace merge_sort {
namespace detail {

Result<BuildReport> build_with_report(const Spec& spec, std::uint32_t cc) {
  return algos::detail::build_algorithm<MergeSort>(spec, cc, kProgramName, generate_source);
}

Result<std::vector<std::byte>> build_naive_cubin(const Spec& spec, std::uint32_t cc) {
  if (auto ok = spec.validate(); !ok) return tl::unexpected(ok.error());
  return algos::detail::jit_build_naive(generate_source(spec), kProgramName, cc);
}

}  // namespace detail

Result<BuildResult> build(const Spec& spec, std::uint32_t cc) {
  auto report = detail::build_with_report(spec, cc);
  if (!report) return tl::unexpected(report.error());
  return std::move(report->result);
}

}  // namespace merge_sort
}  // namespace cccl_cache::algos
