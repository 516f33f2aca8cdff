// Iterators as algorithm inputs and outputs: the spec's descriptor (part of its
// encoding and key) and a call's run-time values for it.
//
// A descriptor says what the kernels are compiled with in place of a plain array; the
// values (a counting start, a constant, device addresses) come with each call and are
// never in the key. The generated source defines one device struct per descriptor with
// the layout below, and the executable packs a call's values into those bytes (passed
// to the kernel by address, as a stateful operator's state):
//
//   counting     {V start}            element i = start + i
//   constant     {V value}            element i = value
//   reverse      {V* end}             element i = end[-1 - i] (end = first + num_items)
//   permutation  {V* values; I* idx}  element i = values[idx[i]]
//   transform    {base}               element i = op(base[i]); base a pointer {V* p} or
//                                     counting {V start}; a stateful op's state (its
//                                     S bytes aligned to A) follows the base at A
//   zip          {C0 c0; C1 c1; ...}  element i = S{c0[i], c1[i], ...}: each component
//                                     an array of its V or one of the kinds above (not
//                                     a zip), laid out as above, in order, each at its
//                                     natural alignment
//   shuffle      {u64 pos; u64 n;     element i = P(pos + i), P a pseudo-random
//                 u32 half_bits;      permutation of [0, n) fixed by a 64-bit seed (n the
//                 u32 keys[8]}        call's number of items; not a zip component)
//   cache_modified {V* p}             element i = p[i], loaded with the PTX cache
//                                     modifier `load` names (CUB's ThreadLoad<LOAD_*>:
//                                     ca, cg, cs (streaming), cv, ldg, volatile)
//
// Iterators nest (`components`, laid out as a zip's, in order, each at its natural
// alignment):
//
//   transform    {B base}             element i = op(base[i]), base any input kind
//     over an iterator                but an array or a counting (those are the forms
//                                     above); over a zip, op takes its components'
//                                     elements as arguments: op(c0[i], c1[i], ...)
//   permutation  {A values; X idx}    element i = values[idx[i]], values an array of
//     over iterators                  V or an input iterator (read at the indices:
//                                     none holding a shuffle or a reverse, whose
//                                     extent is the call's count), idx an array of I
//                                     or an input iterator of an index type (not both
//                                     arrays: that is the form above)
//   reverse      {B base; i64 last}   element i = base[last - i], last = num_items - 1;
//     over an iterator                base any input kind but an array (the form
//                                     above) or a zip (reverse its components
//                                     instead); inputs only
//
// A nested iterator's value type is its V where named, else its base's (a transform, a
// reverse), or its values' (a permutation); a component names (or so has) one.
//
// A zip reads into, and writes from, a struct element type S (types.hpp ElementType)
// whose fields are, in order, exactly the components' types (a build checks it), e.g.
// a {float value; long long index;} from zip(float32, counting(int64)) for an argmax.
//
// A counting iterator counts in an integer type (wrapping as it does); a shuffle's V is
// an integer type too.
//
// P is a balanced Feistel network of 8 rounds over 2 * half_bits bits (the smallest
// half_bits >= 1 whose domain holds n), each round's key one output of SplitMix64 seeded
// with the seed; values at or above n are walked on (fed through again) until one is
// below n, so P is a bijection of [0, n). shuffle_index (core) computes it on the host.
//
// As an output (an algorithm's `output` field), element i is written, never read:
//
//   reverse      {V* end}             end[-1 - i] = x
//   permutation  {V* values; I* idx}  values[idx[i]] = x (a scatter); idx may be an
//                                     input iterator ({V* values; X idx}, nested)
//   transform    {V* p}               p[i] = op(x), op applied to the algorithm's value
//                                     (a stateful op's state after p, as an input's)
//   discard      {}                   nothing
//   zip          {C0 c0; ...}         component k written with field k of x (each an
//                                     array of its V or an output kind above)
//
// and a written value of the algorithm's type is converted to V.
//
// A nested transform's stateful op's state follows its components likewise. A stateful
// op is called as the algorithms' are, op(void* state, x...), on the iterator's own copy.
//
// V is the iterator's `type`, I its `index_type`. What an algorithm sees is its own
// element type: a counting iterator of int64 values read by a float32 reduce yields
// static_cast<float>(start + i). Which kinds each algorithm accepts is in its spec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/types.hpp"

namespace cccl_cache::algos {

// The numbers are part of the canonical spec encoding: never reuse one.
enum class IteratorKind : std::uint8_t {
  pointer = 0,  // a plain device array of the algorithm's element type (the default)
  counting = 1,
  constant = 2,
  transform = 3,
  reverse = 4,
  permutation = 5,
  discard = 6,  // outputs only
  zip = 7,
  shuffle = 8,  // inputs only
  cache_modified = 9,  // inputs only
};

// A cache_modified iterator's load: CUB's CacheLoadModifier of the same name (LOAD_CA,
// ...). The numbers are part of the canonical spec encoding: never reuse one.
enum class CacheLoad : std::uint8_t {
  none = 0,  // every other kind
  ca = 1,    // cache at all levels
  cg = 2,    // cache in L2, not L1
  cs = 3,    // streaming: likely read once (the reference's "stream")
  cv = 4,    // volatile: fetch again on every read
  ldg = 5,   // through the read-only data cache
  volatile_load = 6,  // a volatile load ("volatile")
};
// "ca", "cg", ...; "unknown" otherwise.
std::string_view cache_load_name(CacheLoad load) noexcept;
std::optional<CacheLoad> parse_cache_load(std::string_view name) noexcept;

// The most components a zip iterator takes.
inline constexpr std::size_t kMaxZipComponents = 8;
// The most levels an iterator tree has (a zip or nested iterator and its components).
inline constexpr std::size_t kMaxIteratorDepth = 4;

// "pointer", "counting", ...; "unknown" otherwise.
std::string_view iterator_kind_name(IteratorKind kind) noexcept;
std::optional<IteratorKind> parse_iterator_kind(std::string_view name) noexcept;

// A spec's iterator. The default (a pointer) is left out of a spec's encoding, so a
// spec without iterators encodes, keys and reads as it did before iterators existed.
//
// Spec text: pointer | counting(V) | constant(V) | reverse(V) | permutation(V,I) |
// transform(OP,V) (over or into a V array) | transform(OP,counting(V)) | discard |
// zip(C0,C1,...) | shuffle(V) | cache_modified(LOAD[,V]); V may be left out ("counting",
// "cache_modified(cs)"): the algorithm's element type. A zip's component is a type (an
// array of it) or an iterator naming its V: zip(float32, counting(int64)). Nested:
// transform(OP,IT[,V]) over an input iterator IT (transform(multiplies,zip(float32,
// float32)): products of pairs), permutation(VALUES,INDICES) with either an iterator and
// the other a type (an array): permutation(float32,shuffle(int64)), reverse(IT) over an
// input iterator IT (reverse(transform(square,float32))). A custom OP gets its
// source as a custom operator field does (source=..., a manifest's [operators]); one
// iterator's custom operators share one source.
struct Iterator {
  IteratorKind kind = IteratorKind::pointer;
  ScalarType type = ScalarType::none;        // V; none: the algorithm's element type
  ScalarType index_type = ScalarType::none;  // permutation: I (int32, uint32, int64, uint64)
  // transform: a unary operator (identity, negate, logical_not, bit_not or custom,
  // optionally stateful; over a zip of two, also a binary kind) and whether its base is a
  // counting iterator rather than a V array.
  Operator op = Operator::of(OpKind::identity);
  bool counting_base = false;
  // zip: its components, each with its V named; an array is a pointer with `type` V.
  // Nested transform or reverse: its base; nested permutation: its values and indices.
  std::vector<Iterator> components{};
  // cache_modified: its load (none for every other kind).
  CacheLoad load = CacheLoad::none;

  static Iterator counting(ScalarType v = ScalarType::none) { return {IteratorKind::counting, v}; }
  static Iterator constant(ScalarType v = ScalarType::none) { return {IteratorKind::constant, v}; }
  static Iterator reverse(ScalarType v = ScalarType::none) { return {IteratorKind::reverse, v}; }
  static Iterator permutation(ScalarType v, ScalarType index) {
    return {IteratorKind::permutation, v, index};
  }
  static Iterator transform(Operator op, ScalarType v = ScalarType::none,
                            bool counting_base = false) {
    return {IteratorKind::transform, v, ScalarType::none, std::move(op), counting_base};
  }
  static Iterator discard() { return {IteratorKind::discard}; }
  static Iterator shuffle(ScalarType v = ScalarType::none) { return {IteratorKind::shuffle, v}; }
  static Iterator cache_modified(CacheLoad load, ScalarType v = ScalarType::none) {
    Iterator it{IteratorKind::cache_modified, v};
    it.load = load;
    return it;
  }
  // A zip's component that is a V array.
  static Iterator array(ScalarType v) { return {IteratorKind::pointer, v}; }
  static Iterator zip(std::vector<Iterator> components) {
    Iterator it{IteratorKind::zip};
    it.components = std::move(components);
    return it;
  }
  // A transform over an input iterator (not an array or a counting: transform() above);
  // `v` its value type where named.
  static Iterator transform_of(Operator op, Iterator base, ScalarType v = ScalarType::none) {
    Iterator it = transform(std::move(op), v);
    it.components = {std::move(base)};
    return it;
  }
  // A permutation whose values or indices (or both) are input iterators, the other an
  // array (Iterator::array).
  static Iterator permutation_of(Iterator values, Iterator indices) {
    Iterator it{IteratorKind::permutation};
    it.components = {std::move(values), std::move(indices)};
    return it;
  }
  // A reverse over an input iterator (not an array: reverse() above, nor a zip).
  static Iterator reverse_of(Iterator base) {
    Iterator it{IteratorKind::reverse};
    it.components = {std::move(base)};
    return it;
  }
  bool nested() const noexcept { return kind != IteratorKind::zip && !components.empty(); }
  bool is_pointer() const noexcept { return kind == IteratorKind::pointer; }
  bool operator==(const Iterator&) const = default;
};

// Spec text of an iterator (custom operators by name).
std::string describe(const Iterator& it);
// The value type of a zip's or a nested iterator's component: its V where named (an
// array's, a counting's, ...), else a nested transform's base's or a nested permutation's
// values'; none where none follows (a zip, a transform over a zip without its V).
ScalarType component_value_type(const Iterator& c) noexcept;
// The source of the iterator's custom operator (a zip's: its components' one), or "".
const std::string& iterator_source(const Iterator& it) noexcept;

// A call's values for a spec's iterator. `kind` must be the spec's; for a pointer
// iterator `pointer` is the array itself.
//   pointer, reverse, transform over an array, cache_modified: `pointer`, the device
//     array's first element (reverse: of the num_items elements read backwards)
//   transform (any form) with a stateful operator: also `index`, its state (the
//     operator's state_size bytes on the host, read during the call; with_state)
//   permutation: `pointer` (values) and `index` (num_items indices)
//   counting (and transform over counting), constant: `value`, the start or constant
//     in the iterator's type V (its size_of(V) low bytes, host byte order)
//   discard: nothing
//   zip, and a nested transform, permutation or reverse: `pointer`, an array of the
//     components' values (each as its kind reads it, an array component's `pointer` its
//     array; a transform's or reverse's base, a permutation's values then indices), and
//     `value` their number (a uint64); read during the call only
//   shuffle: `value`, the seed (a uint64)
// An output's arrays are written: `pointer` and `index` are const here only so that one
// type serves both roles.
struct IteratorValue {
  IteratorKind kind = IteratorKind::pointer;
  const void* pointer = nullptr;
  const void* index = nullptr;
  alignas(8) unsigned char value[8] = {};

  static IteratorValue array(const void* d) { return {IteratorKind::pointer, d}; }
  static IteratorValue reverse(const void* d_first) { return {IteratorKind::reverse, d_first}; }
  static IteratorValue permutation(const void* d_values, const void* d_index) {
    return {IteratorKind::permutation, d_values, d_index};
  }
  static IteratorValue transform(const void* d_base) { return {IteratorKind::transform, d_base}; }
  static IteratorValue cache_modified(const void* d) { return {IteratorKind::cache_modified, d}; }
  static IteratorValue discard() { return {IteratorKind::discard}; }
  static IteratorValue zip(const IteratorValue* components, std::uint64_t count) {
    return of(IteratorKind::zip, count, components);
  }
  // A nested transform's: its base's value (read during the call only).
  static IteratorValue transform_of(const IteratorValue* base) {
    return of(IteratorKind::transform, std::uint64_t{1}, base);
  }
  // A nested reverse's: its base's value (read during the call only).
  static IteratorValue reverse_of(const IteratorValue* base) {
    return of(IteratorKind::reverse, std::uint64_t{1}, base);
  }
  // A nested permutation's: its values' and its indices' values, in that order.
  static IteratorValue permutation_of(const IteratorValue* values_and_indices) {
    return of(IteratorKind::permutation, std::uint64_t{2}, values_and_indices);
  }
  static IteratorValue shuffle(std::uint64_t seed) { return of(IteratorKind::shuffle, seed); }
  // This transform's value with its stateful operator's state (host bytes).
  IteratorValue with_state(const void* h_state) const {
    IteratorValue v = *this;
    v.index = h_state;
    return v;
  }
  // A counting or constant value (or a transform over counting's start) of host type T.
  template <class T>
  static IteratorValue of(IteratorKind kind, const T& v, const void* pointer = nullptr) {
    static_assert(sizeof(T) <= 8);
    IteratorValue out{kind, pointer};
    std::memcpy(out.value, &v, sizeof(T));
    return out;
  }
  template <class T>
  static IteratorValue counting(const T& start) {
    return of(IteratorKind::counting, start);
  }
  template <class T>
  static IteratorValue constant(const T& v) {
    return of(IteratorKind::constant, v);
  }
};

// An algorithm's input as a call gives it: a device array (any pointer converts), or the
// call's values for the spec's input iterator. An executable whose spec has an input
// iterator takes the values of that kind; one with a pointer input, an array.
struct Input {
  Input(const void* d_array) noexcept : value{IteratorKind::pointer, d_array} {}  // NOLINT
  Input(const IteratorValue& v) noexcept : value(v) {}                            // NOLINT
  IteratorValue value;
};

// An algorithm's output as a call gives it: a device array, or the call's values for the
// spec's output iterator (reverse, permutation, transform into a V array, discard).
struct Output {
  Output(void* d_array) noexcept : value{IteratorKind::pointer, d_array} {}  // NOLINT
  Output(const IteratorValue& v) noexcept : value(v) {}                     // NOLINT
  IteratorValue value;
};

}  // namespace cccl_cache::algos
