// Transform specifications: unary_transform (out[i] = op(in[i])) and binary_transform
// (out[i] = op(in1[i], in2[i])), one template over the number of inputs, each input and
// the output an array or an iterator (iterator.hpp). Their fields give the canonical
// encoding, key, spec text and summary (core/spec_fields.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {
template <int N>
struct Transform;  // the algorithms' traits (build_result.hpp)
}

namespace cccl_cache::algos::transform {

// N inputs (1 or 2) of element types `in`, one output of type `out`, each a scalar or a
// user's struct (with a custom operator). No offset field:
// CUB's transform dispatch takes only int64 offsets (DeviceTransform converts every
// count to int64: "faster than uint64_t and similar to a 32-bit offset type").
template <int N>
struct Spec {
  static_assert(N == 1 || N == 2);
  using Algorithm = Transform<N>;
  static constexpr AlgorithmId kAlgorithm =
      N == 1 ? AlgorithmId::unary_transform : AlgorithmId::binary_transform;

  std::array<ElementType, N> in = filled(ScalarType::float32);
  ElementType out = ScalarType::float32;
  // identity / negate / custom (unary); plus .. minus / custom (binary).
  Operator op = Operator::of(N == 1 ? OpKind::identity : OpKind::plus);
  // Input k: an in[k] array (pointer, the default), or an iterator of an input kind
  // (spec_fields.hpp kInputIterators) read as in[k], e.g. out[i] = op(x[i], i) with a
  // counting input2 (scalars), or a zip of a struct's fields. The call then takes an
  // IteratorValue (iterator.hpp Input) for it.
  std::array<Iterator, N> inputs{};
  // The output: an `out` array (the default), or a reverse, permutation (a scatter),
  // transform or discard iterator written with `out` values (scalars), or a zip writing a
  // struct's fields. The call then takes an IteratorValue (iterator.hpp Output) for it.
  Iterator output;

  template <class Self, class V>
  static void fields(Self& s, V&& v) {
    if constexpr (N == 1) {
      v(Field{1, "in", Need::required}, s.in[0]);
    } else {
      v(Field{1, "in1", Need::required}, s.in[0]);
      v(Field{2, "in2", Need::required}, s.in[1]);
    }
    v(Field{N + 1, "out", Need::required}, s.out);
    v(Field{N + 2, "op"}, s.op);
    if constexpr (N == 1) {
      v(Field{4, "input"}, s.inputs[0]);
    } else {
      v(Field{5, "input1"}, s.inputs[0]);
      v(Field{6, "input2"}, s.inputs[1]);
    }
    v(Field{2 * N + 3, "output"}, s.output);
  }

  // Element types or valid structs in and out; an operator of the arity (bitwise kinds:
  // integer types only; custom where any type is a struct); float16/bfloat16 only with
  // every scalar type the same; each input iterator valid over its in[k], the output over
  // `out` (validate_item_iterator). Error: invalid_argument naming the field
  // (unsupported: an iterator kind transform does not take).
  Result<void> validate() const;

  // Whether input k is an iterator rather than an array; whether any argument is.
  bool input_iterator(int k) const noexcept { return !inputs[k].is_pointer(); }
  bool iterators() const noexcept {
    bool any = !output.is_pointer();
    for (int k = 0; k < N; ++k) any = any || input_iterator(k);
    return any;
  }

  bool operator==(const Spec&) const = default;

 private:
  static std::array<ElementType, N> filled(ScalarType t) {
    std::array<ElementType, N> a{};
    a.fill(t);
    return a;
  }
};

using UnarySpec = Spec<1>;
using BinarySpec = Spec<2>;

using algos::cache_key;
using algos::summary;  // spec text

}  // namespace cccl_cache::algos::transform
