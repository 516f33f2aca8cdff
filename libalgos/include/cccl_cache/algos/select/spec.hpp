// select specification (cub::DeviceSelect::If: the items for which a predicate holds are
// copied out in order, and how many to device memory): its fields, from which the
// canonical encoding, key, spec text and summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
struct Select;  // the algorithm's traits (build_result.hpp)
}

namespace cccl_cache::algos::select {

// Items are `type` (input and output arrays alike; a scalar or a user's struct of any
// valid layout: the host dispatch never touches items). `op` is the predicate: identity
// (an item is kept where it converts to true: nonzero; scalars only) or custom source
// naming a `__device__ bool f(T x)`. `offset_type` is the kernel's count type as
// DeviceSelect::If takes it (CCCL 3.5: always int64, ::cuda::std::int64_t num_items);
// `selected_type` the integer type of the one-element device array the number selected
// is written to.
struct Spec {
  using Algorithm = Select;
  static constexpr AlgorithmId kAlgorithm = AlgorithmId::select;

  ElementType type = ScalarType::int32;  // a scalar, or a struct (with a custom predicate)
  Operator op = Operator::of(OpKind::identity);
  ScalarType offset_type = ScalarType::int64;     // int64
  ScalarType selected_type = ScalarType::uint64;  // int32, uint32, int64 or uint64
  // The input: a T array (pointer, the default), or an iterator of an input kind
  // (spec_fields.hpp kInputIterators) read as T (scalars), or a zip of a struct's fields,
  // e.g. zip(float32,counting(int64)) to keep values with their positions. The call then
  // takes an IteratorValue (iterator.hpp Input) for it.
  Iterator input;
  // The output of the selected items: a T array (the default), or a reverse, permutation,
  // transform or discard iterator (scalars; discard: only the number selected is
  // written, a count_if), or a zip writing a struct's fields. The call then takes an
  // IteratorValue (iterator.hpp Output) for it.
  Iterator output;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "op"}, s.op);
    v(Field{3, "offset"}, s.offset_type);
    v(Field{4, "selected"}, s.selected_type);
    v(Field{5, "input"}, s.input);
    v(Field{6, "output"}, s.output);
  }

  // An element type or a valid struct; identity (scalars) or a valid custom predicate;
  // offset int64; an integer selected type of 4 or 8 bytes; input and output iterators as
  // validate_item_iterators checks them. Error: invalid_argument naming the field
  // (unsupported: an iterator kind select does not take there).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using algos::cache_key;
// Spec text: "select type=int32 op=identity offset=int64 selected=uint64".
using algos::summary;

}  // namespace cccl_cache::algos::select
