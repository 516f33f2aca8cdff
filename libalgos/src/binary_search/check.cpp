// Binary search's checks of a build record (BinarySearch::check): its kernel is CUB's
// unary transform kernel, so they are the unary transform's (transform/check.cpp). Every
// stored entry and every fresh build goes through them.
#include "cccl_cache/algos/binary_search/build_result.hpp"

namespace cccl_cache::algos {

Result<void> BinarySearch::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  return UnaryTransform::check(UnaryTransform::Spec{}, p, record);
}

}  // namespace cccl_cache::algos
