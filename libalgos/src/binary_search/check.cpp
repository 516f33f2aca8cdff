// Binary search's checks of a build record (BinarySearch::check): its kernel is CUB's
// transform kernel, so they are the transform kernel's (core/transform_kernel.hpp). Every
// stored entry and every fresh build goes through them.
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "core/transform_kernel.hpp"

namespace cccl_cache::algos {

Result<void> BinarySearch::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  return transform_kernel::detail::check(p, record);
}

}  // namespace cccl_cache::algos
