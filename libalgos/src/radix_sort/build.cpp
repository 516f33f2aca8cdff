// RadixSort::build over the core pipeline (core/build.hpp).
#include "radix_sort/codegen.hpp"

namespace cccl_cache::algos {

std::uint64_t RadixSort::codegen_digest(const Spec& spec) {
  return detail::codegen_digest<RadixSort>(spec);
}
Result<Built<RadixSort>> RadixSort::build(const Spec& spec, std::uint32_t cc) {
  return detail::build<RadixSort>(spec, cc);
}

}  // namespace cccl_cache::algos
