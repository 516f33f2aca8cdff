// histogram_even specification (cub::DeviceHistogram::HistogramEven, one channel: counts
// of samples in num_levels - 1 equal-width bins over [lower, upper)): its fields, from
// which the canonical encoding, key, spec text and summary derive (core/spec_fields.hpp).
// The number of levels, the bounds and the sample count are call arguments: one build
// serves every bin count.
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct HistogramEven;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::histogram_even {

// Samples are `type`; the bounds are `level_type` (none: the sample type; CUB bins in
// their common type), the bins `counter_type`. `offset_type` is the kernels' count type:
// int32 is what HistogramEven runs for any count whose samples fit in INT_MAX bytes,
// int64 for more.
struct Spec {
  using Algorithm = HistogramEven;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::histogram_even;

  ScalarType type = ScalarType::int32;
  ScalarType level_type = ScalarType::none;     // none: the sample type
  ScalarType counter_type = ScalarType::int32;  // int32, uint32 or uint64
  ScalarType offset_type = ScalarType::int32;   // int32 or int64
  // The samples: a `type` array (pointer, the default), or an iterator of an input kind
  // (spec_fields.hpp kInputIterators) read as `type`. A call takes an
  // IteratorValue (iterator.hpp Input) for an iterator.
  Iterator samples;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "level"}, s.level_type);
    v(Field{3, "counter"}, s.counter_type);
    v(Field{4, "offset"}, s.offset_type);
    v(Field{5, "samples"}, s.samples);
  }

  // Sample and level types integer, float32 or float64 (not float16/bfloat16); counter
  // int32, uint32 or uint64 (CUB adds to them with atomicAdd); offset int32 or int64;
  // samples of the kinds above (validate_iterator). Error: invalid_argument naming the
  // field (unsupported: an iterator kind that is not taken there).
  Result<void> validate() const;

  // The bounds' type: level_type, or the sample type where none.
  ScalarType levels() const { return level_type == ScalarType::none ? type : level_type; }
  // Whether CUB takes its byte-sample path (1-byte samples: 256 privatized bins always).
  bool byte_samples() const { return size_of(type) == 1; }
  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
// Spec text: "histogram_even type=int32 level=none counter=int32 offset=int32".
using algos::summary;

}  // namespace cccl_cache::algos::histogram_even
