// Reduce::build over the core pipeline (core/build.hpp) and what it refuses.
#include "reduce/codegen.hpp"

namespace cccl_cache::algos {

std::uint64_t Reduce::codegen_digest(const Spec& spec) { return detail::codegen_digest<Reduce>(spec); }
Result<Built<Reduce>> Reduce::build(const Spec& spec, std::uint32_t cc) {
  return detail::build<Reduce>(spec, cc);
}

Result<void> detail::BuildSteps<Reduce>::accept(const reduce::Policy& policy) {
  // The host dispatch has stand-ins for accumulators of 1, 2, 4 and 8 bytes.
  const std::uint32_t a = policy.accum_size;
  if ((a == 1 || a == 2 || a == 4 || a == 8) && policy.accum_align == a) return {};
  return fail(ErrorCode::unsupported, "reduce: the operator's accumulator type (" +
                                          std::to_string(a) + " bytes) is not a 1, 2, 4 or 8-byte scalar");
}

}  // namespace cccl_cache::algos
