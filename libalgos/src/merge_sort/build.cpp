#include "cccl_cache/algos/merge_sort/build.hpp"

#include <algorithm>

#include "merge_sort/build_detail.hpp"
#include "merge_sort/codegen.hpp"
#include "merge_sort/dispatch.hpp"
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

std::string version_text(std::uint32_t v) {
  return std::to_string(v / 1000000) + "." + std::to_string((v / 1000) % 1000) + "." +
         std::to_string(v % 1000) + " (CCCL_VERSION " + std::to_string(v) + ")";
}

}  // namespace

Result<void> check_cccl_version() {
  const std::string dir = algos::detail::cccl_include_dir();
  const std::uint32_t nvrtc_side = algos::detail::read_cccl_version(dir);
  const std::uint32_t host_side = host_cccl_version();
  if (nvrtc_side == host_side) return {};
  return fail(ErrorCode::unsupported,
              "NVRTC would compile against CCCL " +
                  (nvrtc_side == 0 ? std::string("of unknown version (no CCCL_VERSION in " + dir +
                                                 "/cuda/std/__cccl/version.h)")
                                   : version_text(nvrtc_side) + " from " + dir) +
                  ", but the host dispatch was compiled with CCCL " + version_text(host_side) +
                  "; their kernel interfaces differ. Unset $CCCL_CACHE_CCCL_INCLUDE or point it "
                  "at the pinned CCCL (scripts/install-deps.sh unpacks it into .deps/)");
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
  return check_cccl_version();
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
  if (policy->block_sort_vsmem_per_block != 0 || policy->merge_vsmem_per_block != 0) {
    return fail(ErrorCode::unsupported,
                "these kernels need virtual shared memory, which CCCL 3.5's merge-sort dispatch "
                "with run-time policies does not allocate");
  }

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
