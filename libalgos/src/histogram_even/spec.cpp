#include "cccl_cache/algos/histogram_even/spec.hpp"

#include <string>
#include <utility>

namespace cccl_cache::algos::histogram_even {
namespace {
// CUB's bin arithmetic (Transforms::ScaleTransform) for the types its host and device
// code both spell: integers, float and double (not bool: two values need no bins).
bool binnable(ScalarType t) {
  return is_element_type(t) && t != ScalarType::float16 && t != ScalarType::bfloat16 &&
         t != ScalarType::boolean;
}
}  // namespace

Result<void> Spec::validate() const {
  auto bad = [](std::string what) {
    return fail(ErrorCode::invalid_argument, "histogram_even spec: " + std::move(what));
  };
  if (!binnable(type)) return bad("field 'type': must be an integer type, float32 or float64");
  if (level_type != ScalarType::none && !binnable(level_type))
    return bad(
        "field 'level': must be none (the sample type), an integer type, float32 or float64");
  if (counter_type != ScalarType::int32 && counter_type != ScalarType::uint32 &&
      counter_type != ScalarType::uint64)
    return bad(
        "field 'counter': must be int32, uint32 or uint64 (the types CUDA's atomicAdd takes)");
  if (offset_type != ScalarType::int32 && offset_type != ScalarType::int64)
    return bad("field 'offset': must be int32 or int64");
  return validate_iterator("histogram_even spec: field 'samples'", samples, type, kInputIterators);
}

}  // namespace cccl_cache::algos::histogram_even
