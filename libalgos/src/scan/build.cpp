#include "cccl_cache/algos/scan/build.hpp"

#include "core/codegen_digest.hpp"
#include "scan/build_detail.hpp"
#include "scan/codegen.hpp"
#include "scan/dispatch.hpp"

namespace cccl_cache::algos {

namespace scan::detail {
template <AlgorithmId Id>
Result<BuildReport<Id>> build_with_report(const Spec<Id>& spec, std::uint32_t cc) {
  const std::string program = "cccl_cache_" + std::string(algorithm_name(Id)) + ".cu";
  return algos::detail::build_algorithm<Scan<Id>>(spec, cc, program, generate_source<Id>);
}
template Result<BuildReport<AlgorithmId::inclusive_scan>> build_with_report(const InclusiveSpec&,
                                                                            std::uint32_t);
template Result<BuildReport<AlgorithmId::exclusive_scan>> build_with_report(const ExclusiveSpec&,
                                                                            std::uint32_t);
}  // namespace scan::detail

template <AlgorithmId Id>
std::uint64_t Scan<Id>::codegen_digest(const Spec& spec) {
  return detail::codegen_digest(spec, scan::detail::generate_source<Id>);
}

template <AlgorithmId Id>
Result<Built<Scan<Id>>> Scan<Id>::build(const Spec& spec, std::uint32_t cc) {
  auto report = scan::detail::build_with_report(spec, cc);
  if (!report) return tl::unexpected(report.error());
  return std::move(report->result);
}

template <AlgorithmId Id>
const std::string& Scan<Id>::dispatch_abi() {
  return scan::detail::dispatch_abi_description();
}

#define CCCL_CACHE_SCAN_INSTANTIATE(A)                                        \
  template std::uint64_t A::codegen_digest(const A::Spec&);                   \
  template Result<Built<A>> A::build(const A::Spec&, std::uint32_t);          \
  template const std::string& A::dispatch_abi();
CCCL_CACHE_SCAN_INSTANTIATE(InclusiveScan)
CCCL_CACHE_SCAN_INSTANTIATE(ExclusiveScan)
#undef CCCL_CACHE_SCAN_INSTANTIATE

}  // namespace cccl_cache::algos
