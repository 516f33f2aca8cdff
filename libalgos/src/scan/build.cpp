// Scan<Id>::build over the core pipeline (core/build.hpp).
#include "scan/codegen.hpp"

namespace cccl_cache::algos {

template <AlgorithmId Id>
std::uint64_t Scan<Id>::codegen_digest(const Spec& spec) {
  return detail::codegen_digest<Scan>(spec);
}
template <AlgorithmId Id>
Result<Built<Scan<Id>>> Scan<Id>::build(const Spec& spec, std::uint32_t cc) {
  return detail::build<Scan>(spec, cc);
}

#define CCCL_CACHE_SCAN_INSTANTIATE(A)                                        \
  template std::uint64_t A::codegen_digest(const A::Spec&);                   \
  template Result<Built<A>> A::build(const A::Spec&, std::uint32_t);
CCCL_CACHE_SCAN_INSTANTIATE(InclusiveScan)
CCCL_CACHE_SCAN_INSTANTIATE(ExclusiveScan)
#undef CCCL_CACHE_SCAN_INSTANTIATE

}  // namespace cccl_cache::algos
