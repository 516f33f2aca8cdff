#include "cccl_cache/algos/segmented_reduce/spec.hpp"

#include "core/codegen.hpp"

namespace cccl_cache::algos::segmented_reduce {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "segmented_reduce spec: " + std::move(what));
  };
  if (!is_element_type(type)) return bad("type must be an integer or float type");
  if (!is_offset_type(offset_type)) return bad("offset must be int32, uint32, int64 or uint64");
  return detail::validate_associative_op("segmented_reduce spec", op, type, /*takes_state=*/true);
}

}  // namespace cccl_cache::algos::segmented_reduce
