// Transform's checks of a build record (Transform<N>::check): the transform kernel's
// (core/transform_kernel.hpp). Every stored entry and every fresh build goes through them.
#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/transform_kernel.hpp"

namespace cccl_cache::algos {

template <int N>
Result<void> Transform<N>::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  return transform_kernel::detail::check(p, record);
}

template Result<void> UnaryTransform::check(const UnaryTransform::Spec&, const transform::Policy&,
                                            const BuildRecordView&);
template Result<void> BinaryTransform::check(const BinaryTransform::Spec&, const transform::Policy&,
                                             const BuildRecordView&);

}  // namespace cccl_cache::algos
