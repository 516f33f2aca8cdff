// Inclusive and exclusive scan specifications: one field list for both (the algorithm
// id is the template parameter), from which the canonical encoding, key, spec text and
// summary derive (core/spec_fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
template <AlgorithmId Id>
struct Scan;  // the algorithms' traits (build_result.hpp)
}

namespace cccl_cache::algos::scan {

// Id: AlgorithmId::inclusive_scan or AlgorithmId::exclusive_scan.
template <AlgorithmId Id>
struct Spec {
  using Algorithm = Scan<Id>;
  static constexpr AlgorithmId kAlgorithm = Id;
  static constexpr bool kExclusive = Id == AlgorithmId::exclusive_scan;

  // Input, initial value and output element type. The accumulator is CUB's own
  // (`::cuda::std::__accumulator_t<Op, T, T>`, as cub::DeviceScan derives it: int for
  // types narrower than int under plus, multiplies and the bitwise kinds, bool under
  // logical_and/or, T otherwise; a custom operator's result is T). A struct (types.hpp
  // ElementType) of 1, 2, 4, 8, 12, 16, 24 or 32 bytes aligned to at most 8 takes a
  // custom operator returning the struct, over an array; its builds are for CCs below 10.0
  // (CUB's look-back scan; the look-ahead one is refused at build).
  ElementType type = ScalarType::none;
  Operator op = Operator::plus();
  // CUB's offset type for global offsets: uint32 or uint64. The default is what
  // cub::DeviceScan chooses (choose_offset_t) for the std::uint64_t item count the
  // executable takes, and what CCCL.C uses.
  ScalarType offset_type = ScalarType::uint64;
  // Inclusive scan only: seeded with an initial value, as cub::DeviceScan::InclusiveScanInit
  // (out[i] = init op in[0] op ... op in[i]; the value comes with each call, from host
  // memory). Spec text init=true; left out of the encoding while false, so the unseeded
  // scan keeps its key. The exclusive scan always takes an initial value.
  bool init = false;
  // The input: a T array (pointer, the default, left out of the encoding so array scans
  // keep their keys), or an iterator of an input kind (iterator.hpp; spec_fields.hpp
  // kInputIterators) read as T, e.g. the running sum of squares as transform(square,float32)
  // over a float32 array. The call then takes its IteratorValue (iterator.hpp Input).
  Iterator input;
  // The output: a T array (pointer, the default, left out of the encoding), or a reverse,
  // permutation (a scatter), transform (op applied to each scanned value, stored into a
  // V array) or discard iterator (iterator.hpp), e.g. a running sum written last first
  // as reverse. The call then takes its IteratorValue (iterator.hpp Output).
  Iterator output;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    v(Field{1, "type", Need::required}, s.type);
    v(Field{2, "op"}, s.op);
    v(Field{3, "offset"}, s.offset_type);
    v(Field{4, "init", Need::added}, s.init);
    v(Field{5, "input"}, s.input);
    v(Field{6, "output"}, s.output);
  }

  // Whether a call takes an initial value: the exclusive scan and a seeded inclusive one.
  bool takes_init() const noexcept { return kExclusive || init; }

  // A scalar element type with plus, multiplies, minimum, maximum, logical_and/or, the
  // bitwise kinds (integer types only) or a valid custom operator, over a valid input
  // iterator (validate_iterator) into a valid output one (validate_output_iterator); or a
  // struct as `type` says (arrays only); offset uint32 or uint64;
  // init on an inclusive scan only. Error: invalid_argument naming the field
  // (unsupported: a stateful transform operator, a struct of another size or alignment,
  // an iterator over structs).
  Result<void> validate() const;

  bool operator==(const Spec&) const = default;
};

using InclusiveSpec = Spec<AlgorithmId::inclusive_scan>;
using ExclusiveSpec = Spec<AlgorithmId::exclusive_scan>;

using algos::cache_key;
using algos::summary;  // spec text

}  // namespace cccl_cache::algos::scan
