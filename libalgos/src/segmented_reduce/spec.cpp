#include "cccl_cache/algos/segmented_reduce/spec.hpp"

#include <string>

#include "core/codegen.hpp"

namespace cccl_cache::algos::segmented_reduce {

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "segmented_reduce spec: " + std::move(what));
  };
  if (!is_offset_type(offset_type)) return bad("offset must be int32, uint32, int64 or uint64");
  const std::string w = "segmented_reduce spec: field ";
  // A reverse input's end and a shuffle's domain are its length, which only the offsets
  // know: neither is its input, a zip's component or nested in it.
  constexpr std::uint32_t inputs =
      kInputIterators & ~iterator_bit(IteratorKind::reverse) & ~iterator_bit(IteratorKind::shuffle);
  if (type.is_struct()) {
    CCCL_CACHE_CHECK(
        detail::validate_items("segmented_reduce spec", "segmented_reduce", type, op, input, output, inputs));
  } else {
    if (!is_element_type(type.scalar)) return bad("type must be an integer, float or bool type, or a struct");
    CCCL_CACHE_CHECK(
        detail::validate_associative_op("segmented_reduce spec", op, type.scalar, /*takes_state=*/true));
    CCCL_CACHE_CHECK(validate_iterator(w + "'input'", input, type.scalar, inputs));
    CCCL_CACHE_CHECK(validate_output_iterator(w + "'output'", output, type.scalar));
  }
  CCCL_CACHE_CHECK(
      validate_iterator(w + "'begin_offsets'", begin_offsets, offset_type, kInputIterators));
  return validate_iterator(w + "'end_offsets'", end_offsets, offset_type, kInputIterators);
}

}  // namespace cccl_cache::algos::segmented_reduce
