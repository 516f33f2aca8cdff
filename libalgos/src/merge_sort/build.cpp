#include "cccl_cache/algos/merge_sort/build.hpp"

#include <algorithm>

#include "merge_sort/build_detail.hpp"
#include "merge_sort/codegen.hpp"
#include "nvrtc_compile.hpp"

namespace cccl_cache::algos::merge_sort {
namespace detail {

bool nvrtc_supports(std::uint32_t cc) {
  int count = 0;
  if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return false;
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return false;
  return std::find(archs.begin(), archs.end(), static_cast<int>(cc)) != archs.end();
}

namespace {

Result<void> check_target(const Spec& spec, std::uint32_t cc) {
  if (auto ok = validate(spec); !ok) return ok;
  if (cc < 50 || cc > 120) {
    return fail(ErrorCode::unsupported,
                "compute capability " + std::to_string(cc) + " is outside 50..120");
  }
  if (!nvrtc_supports(cc)) {
    return fail(ErrorCode::unsupported, "this NVRTC cannot compile for sm_" + std::to_string(cc));
  }
  return {};
}

constexpr const char* kProgramName = "cccl_cache_merge_sort.cu";

}  // namespace

Result<BuildReport> build_with_report(const Spec& spec, std::uint32_t cc) {
  if (auto ok = check_target(spec, cc); !ok) return tl::unexpected(ok.error());
  const auto gen = generate_source(spec);
  auto ir = algos::detail::compile_to_ltoir(gen.source, kProgramName, cc, gen.name_expressions);
  if (!ir) return tl::unexpected(ir.error());
  auto policy = parse_policy_probe(ir->lowered_names[kPolicyProbeExpr]);
  if (!policy) return tl::unexpected(policy.error());

  // The probe is a kernel too; it is not kept, so it costs nothing in the cubin.
  const std::vector<std::string> kernels = {ir->lowered_names[kBlockSortExpr],
                                            ir->lowered_names[kPartitionExpr],
                                            ir->lowered_names[kMergeExpr]};
  auto cubin = algos::detail::link_ltoir(ir->ltoir, cc, kernels);
  if (!cubin) return tl::unexpected(cubin.error());

  BuildReport report;
  report.ltoir_bytes = ir->ltoir.size();
  report.nvrtc_log = std::move(ir->log);
  auto& r = report.result;
  r.spec = spec;
  r.cc = cc;
  r.toolchain = Toolchain::current().fingerprint();
  r.cubin = std::move(*cubin);
  r.block_sort_kernel = kernels[0];
  r.partition_kernel = kernels[1];
  r.merge_kernel = kernels[2];
  r.policy = *policy;
  return report;
}

Result<std::vector<std::byte>> build_naive_cubin(const Spec& spec, std::uint32_t cc) {
  if (auto ok = check_target(spec, cc); !ok) return tl::unexpected(ok.error());
  const auto gen = generate_source(spec);
  return algos::detail::compile_to_cubin_naive(gen.source, kProgramName, cc, gen.name_expressions);
}

}  // namespace detail

Result<BuildResult> build(const Spec& spec, std::uint32_t cc) {
  auto report = detail::build_with_report(spec, cc);
  if (!report) return tl::unexpected(report.error());
  return std::move(report->result);
}

}  // namespace cccl_cache::algos::merge_sort
