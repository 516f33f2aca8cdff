#include "cccl_cache/algos/merge_sort/build.hpp"

#include <array>
#include <string>

#include "merge_sort/build_detail.hpp"
#include "core/codegen_digest.hpp"
#include "merge_sort/codegen.hpp"
#include "merge_sort/dispatch.hpp"

namespace cccl_cache::algos {

namespace {
constexpr std::string_view kProgramName = "cccl_cache_merge_sort.cu";

}  // namespace

std::uint64_t MergeSort::codegen_digest(const Spec& spec) {
  return detail::codegen_digest(spec, merge_sort::detail::generate_source);
}

Result<Built<MergeSort>> MergeSort::build(const Spec& spec, std::uint32_t cc) {
  return merge_sort::build(spec, cc);
}

namespace merge_sort {
namespace detail {

Result<BuildReport> build_with_report(const Spec& spec, std::uint32_t cc) {
  auto report = algos::detail::build_algorithm<MergeSort>(spec, cc, kProgramName, generate_source);
  if (report && (report->result.policy.block_sort_vsmem_per_block != 0 ||
                 report->result.policy.merge_vsmem_per_block != 0)) {
    return fail(ErrorCode::unsupported,
                "these kernels need virtual shared memory, which CCCL 3.5's merge-sort dispatch "
                "with run-time policies does not allocate");
  }
  return report;
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
