#include <string_view>

#include "core/codegen_digest.hpp"
#include "radix_sort/codegen.hpp"
#include "radix_sort/dispatch.hpp"

namespace cccl_cache::algos {

namespace {
constexpr std::string_view kProgramName = "cccl_cache_radix_sort.cu";
}  // namespace

std::uint64_t RadixSort::codegen_digest(const Spec& spec) {
  // Both kernel sets: which one a build compiles follows from the CC, which keys hold.
  return detail::codegen_digest(spec, [](const Spec& s) {
    auto gen = radix_sort::detail::generate_source(s, false);
    const auto onesweep = radix_sort::detail::generate_source(s, true);
    gen.kernels.insert(gen.kernels.end(), onesweep.kernels.begin(), onesweep.kernels.end());
    return gen;
  });
}

Result<Built<RadixSort>> RadixSort::build(const Spec& spec, std::uint32_t cc) {
  return radix_sort::build(spec, cc);
}

namespace radix_sort {

Result<detail::BuildReport> detail::build_with_report(const Spec& spec, std::uint32_t cc) {
  // CUB's selector on the host names the kernels; the probe and check() confirm it.
  const bool onesweep = spec.validate() && selects_onesweep(spec, cc);
  return algos::detail::build_algorithm<RadixSort>(
      spec, cc, kProgramName, [&](const Spec& s) { return generate_source(s, onesweep); });
}

Result<BuildResult> build(const Spec& spec, std::uint32_t cc) {
  auto report = detail::build_with_report(spec, cc);
  if (!report) return tl::unexpected(report.error());
  return std::move(report->result);
}

}  // namespace radix_sort
}  // namespace cccl_cache::algos
