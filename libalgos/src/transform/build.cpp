// Transform<N>::build over the core pipeline (core/build.hpp).
#include "transform/codegen.hpp"

namespace cccl_cache::algos {

template <int N>
std::uint64_t Transform<N>::codegen_digest(const Spec& spec) {
  return detail::codegen_digest<Transform>(spec);
}
template <int N>
Result<Built<Transform<N>>> Transform<N>::build(const Spec& spec, std::uint32_t cc) {
  return detail::build<Transform>(spec, cc);
}

template std::uint64_t UnaryTransform::codegen_digest(const UnaryTransform::Spec&);
template std::uint64_t BinaryTransform::codegen_digest(const BinaryTransform::Spec&);
template Result<Built<UnaryTransform>> UnaryTransform::build(const UnaryTransform::Spec&, std::uint32_t);
template Result<Built<BinaryTransform>> BinaryTransform::build(const BinaryTransform::Spec&, std::uint32_t);

}  // namespace cccl_cache::algos
