#include "cccl_cache/algos/reduce/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::reduce {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "reduce spec: " + std::move(what));
  };
  if (!is_unsigned_offset(offset_type)) return bad("offset must be uint32 or uint64");
  return detail::validate_items("reduce spec", "reduce", type, op, input, output);
}

}  // namespace cccl_cache::algos::reduce
