#include "cccl_cache/algos/transform/build.hpp"

#include "core/build.hpp"
#include "core/codegen_digest.hpp"
#include "transform/codegen.hpp"

namespace cccl_cache::algos {

template <int N>
std::uint64_t Transform<N>::codegen_digest(const Spec& spec) {
  return detail::codegen_digest(spec, transform::detail::generate_source<N>);
}

template <int N>
Result<Built<Transform<N>>> Transform<N>::build(const Spec& spec, std::uint32_t cc) {
  return transform::build<N>(spec, cc);
}

namespace transform {

template <int N>
Result<BuildResult<N>> build(const Spec<N>& spec, std::uint32_t cc) {
  CCCL_CACHE_TRY(auto report,
                 algos::detail::build_algorithm<Transform<N>>(
                     spec, cc, N == 1 ? "cccl_cache_unary_transform.cu" : "cccl_cache_binary_transform.cu",
                     detail::generate_source<N>));
  return std::move(report.result);
}

template Result<BuildResult<1>> build(const Spec<1>&, std::uint32_t);
template Result<BuildResult<2>> build(const Spec<2>&, std::uint32_t);

}  // namespace transform

template std::uint64_t Transform<1>::codegen_digest(const Transform<1>::Spec&);
template std::uint64_t Transform<2>::codegen_digest(const Transform<2>::Spec&);
template Result<Built<Transform<1>>> Transform<1>::build(const Transform<1>::Spec&, std::uint32_t);
template Result<Built<Transform<2>>> Transform<2>::build(const Transform<2>::Spec&, std::uint32_t);

}  // namespace cccl_cache::algos
