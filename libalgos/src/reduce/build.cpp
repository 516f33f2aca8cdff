#include "cccl_cache/algos/reduce/build.hpp"

#include "reduce/build_detail.hpp"
#include "core/codegen_digest.hpp"
#include "reduce/codegen.hpp"

namespace cccl_cache::algos {

std::uint64_t Reduce::codegen_digest(const Spec& spec) {
  return detail::codegen_digest(spec, reduce::detail::generate_source);
}

Result<Built<Reduce>> Reduce::build(const Spec& spec, std::uint32_t cc) {
  return reduce::build(spec, cc);
}

namespace reduce {

Result<detail::BuildReport> detail::build_with_report(const Spec& spec, std::uint32_t cc) {
  auto report = algos::detail::build_algorithm<Reduce>(spec, cc, "cccl_cache_reduce.cu",
                                                       generate_source);
  if (!report) return report;
  // The host dispatch has stand-ins for accumulators of 1, 2, 4 and 8 bytes.
  const std::uint32_t a = report->result.policy.accum_size;
  if ((a != 1 && a != 2 && a != 4 && a != 8) || report->result.policy.accum_align != a)
    return fail(ErrorCode::unsupported,
                "reduce: the operator's accumulator type (" + std::to_string(a) +
                    " bytes) is not a 1, 2, 4 or 8-byte scalar");
  return report;
}

Result<BuildResult> build(const Spec& spec, std::uint32_t cc) {
  auto report = detail::build_with_report(spec, cc);
  if (!report) return tl::unexpected(report.error());
  return std::move(report->result);
}

}  // namespace reduce
}  // namespace cccl_cache::algos
