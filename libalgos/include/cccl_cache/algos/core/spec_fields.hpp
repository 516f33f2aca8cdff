// Spec fields: every algorithm spec lists its fields once, and the canonical
// encoding (keys and blobs), the spec text (CLI, manifests), the summary and JSON
// are all derived from that one list. A spec type declares
//
//   static constexpr AlgorithmId kAlgorithm = AlgorithmId::merge_sort;
//   template <class Self, class Visitor>
//   static void fields(Self& spec, Visitor&& v) {   // Self: Spec or const Spec
//     v(Field{1, "keys", Need::required}, spec.key_type);
//     v(Field{2, "values"}, spec.value_type);
//     v(Field{3, "compare"}, spec.comparator);
//   }
//   Result<void> validate() const;                  // cross-field rules
//
// Field values are ScalarType, ElementType (a scalar or a user's struct), Operator,
// Iterator, bool or std::uint32_t. Tags are part of the canonical encoding: never reuse
// one within a spec. An Iterator field that holds the default (a pointer) is left out of
// the encoding and the spec text, so adding one to a spec changes none of its existing
// encodings, keys or texts; so is a bool field declared Need::added while it is false.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/core/algorithm.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {

// added: a bool field added to a spec that already had keys: left out of the encoding
// and the spec text while false, so the existing specs keep their keys.
enum class Need : std::uint8_t { optional, required, added };

struct Field {
  std::uint8_t tag;
  std::string_view name;  // as written in spec text ("keys")
  Need need = Need::optional;
};

// One field as text: the spec-text value of a field ("float32", "less", "abs_less",
// "true", "8"); for a custom operator also its source.
struct FieldText {
  std::string name;
  std::string value;
  std::string source;  // custom operators only
  bool operator==(const FieldText&) const = default;
};

// Text of a value, as spec text writes it.
std::string field_text(ScalarType v);
std::string field_text(const ElementType& v);  // describe(): "float32", "pair:8/4"
std::string field_text(const Operator& v);
std::string field_text(bool v);
std::string field_text(std::uint32_t v);
std::string field_text(const Iterator& v);

// Parses spec-text `text` into `out`. For an operator, `text` is a well-known kind's
// name or a custom operator's name (a stateful one's followed by ":SIZE/ALIGN", its
// state layout), and `source` its CUDA C++ source (empty for a well-known kind). Error
// invalid_argument naming the field and what it accepts.
[[nodiscard]] Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         ScalarType& out);
[[nodiscard]] Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         Operator& out);
// An element type: a scalar type's name with no source, or a struct written
// NAME:SIZE/ALIGN with its CUDA C++ definition as `source`.
[[nodiscard]] Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         ElementType& out);
[[nodiscard]] Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         bool& out);
[[nodiscard]] Result<void> parse_field(const Field& f, std::string_view text, std::string_view source,
                         std::uint32_t& out);
// An iterator as iterator.hpp writes it; `source` that of a transform's custom operator.
[[nodiscard]] Result<void> parse_field(const Field& f, std::string_view text,
                                       std::string_view source, Iterator& out);

// Checks an operator: a custom one has a C++ identifier as name (not starting with
// cccl_cache_), non-blank source under 1 MiB and a valid state layout (none, or a
// power-of-two alignment up to kMaxOpStateAlignment and a size that is a non-zero
// multiple of it up to kMaxOpStateSize); a well-known one has neither and a known kind.
// Error invalid_argument, prefixed with `what`; unsupported for a stateful operator
// where `takes_state` is false (an algorithm whose host dispatch hands its operator to
// CUB inside another function object, which cannot carry the state).
[[nodiscard]] Result<void> validate_operator(std::string_view what, const Operator& op,
                                             bool takes_state = false);

// Checks an iterator field of an algorithm whose element type there is `element`: kinds
// the algorithm takes (`accepted`, a bit per IteratorKind), a value type that is an
// element type or none, an index type for a permutation only (an offset type), a
// counting start of an integer type, and a transform's operator (a
// unary kind that applies to its values, or a stateless custom one). Error
// invalid_argument, or unsupported for a kind the algorithm does not take, naming `what`.
[[nodiscard]] Result<void> validate_iterator(std::string_view what, const Iterator& it,
                                             ScalarType element, std::uint32_t accepted);
// The `accepted` bit of a kind.
constexpr std::uint32_t iterator_bit(IteratorKind k) { return 1u << static_cast<unsigned>(k); }
// The kinds an algorithm takes where its kernels read an input array element by element
// (reduce's and the scans' input): every input kind iterator.hpp defines (a zip is
// checked apart, validate_zip_iterator).
inline constexpr std::uint32_t kInputIterators =
    iterator_bit(IteratorKind::pointer) | iterator_bit(IteratorKind::counting) |
    iterator_bit(IteratorKind::constant) | iterator_bit(IteratorKind::transform) |
    iterator_bit(IteratorKind::reverse) | iterator_bit(IteratorKind::permutation) |
    iterator_bit(IteratorKind::shuffle) | iterator_bit(IteratorKind::cache_modified);
// Checks an output iterator field (reduce's and the scans' `output`): a pointer, reverse,
// permutation, transform into an array or discard, as validate_iterator checks an input,
// except that a transform's operator applies to the algorithm's values (`element`), its
// result converted to the iterator's V. Error as validate_iterator's.
[[nodiscard]] Result<void> validate_output_iterator(std::string_view what, const Iterator& it,
                                                    ScalarType element);
// Checks a zip iterator read (or, `output`, written) as struct items: 1 to
// kMaxZipComponents components, each a V array or an input (output) kind other than zip
// naming its V (an output's discard takes none) and valid as validate_iterator
// (validate_output_iterator) checks it over V, at least one neither constant nor discard,
// and its custom operators sharing one source. The struct's fields are checked against
// the components by the build. Error as validate_iterator's.
[[nodiscard]] Result<void> validate_zip_iterator(std::string_view what, const Iterator& it,
                                                 bool output,
                                                 std::uint32_t input_kinds = kInputIterators);

// Checks a struct element type (a scalar passes): a C++ identifier as name (not
// starting with cccl_cache_), a non-blank definition under 1 MiB with only <...>
// includes, a power-of-two alignment up to kMaxStructAlignment and a size that is a
// non-zero multiple of it up to kMaxStructSize. Error invalid_argument prefixed with
// `what`. Whether an algorithm takes structs at all (and of which sizes) is its own rule.
[[nodiscard]] Result<void> validate_struct(std::string_view what, const ElementType& t);

// The sizes a struct may have where a host dispatch moves elements as bytes of their
// size (merge sort's keys and values, reduce's items): those it is instantiated for
// (src/core/fan_out.cuh on_element_size).
inline constexpr std::uint32_t kStandInStructSizes[] = {1, 2, 4, 8, 12, 16, 24, 32};
// validate_struct, and (a struct) a size in kStandInStructSizes: else error unsupported
// "<what>: struct 'NAME' of N bytes: <algorithm> takes structs of 1, 2, ... bytes".
[[nodiscard]] Result<void> validate_stand_in_struct(std::string_view what, std::string_view algorithm,
                                                    const ElementType& t);

// Whether a field's type is an operator (its source comes with it), or an element type
// (a struct's definition comes with it as its source).
template <class T>
inline constexpr bool kIsOperator = std::is_same_v<T, Operator>;
template <class T>
inline constexpr bool kIsElementType = std::is_same_v<T, ElementType>;

// The fields of `spec` as text, in declaration order; pointer iterators and false added
// bools left out.
template <class Spec>
std::vector<FieldText> fields_as_text(const Spec& spec) {
  std::vector<FieldText> out;
  Spec::fields(spec, [&](const Field& f, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, Iterator>) {
      if (value == Iterator{}) return;
    }
    if constexpr (std::is_same_v<T, bool>) {
      if (f.need == Need::added && !value) return;
    }
    FieldText t{std::string(f.name), field_text(value), {}};
    if constexpr (kIsOperator<T>) t.source = value.source;
    if constexpr (std::is_same_v<T, Iterator>) t.source = iterator_source(value);
    if constexpr (kIsElementType<T>) t.source = value.layout.definition;
    out.push_back(std::move(t));
  });
  return out;
}

// "merge_sort keys=float32 values=none compare=less offset=int64": the one spelling of
// a spec for people (CLI, logs, entry summaries). Custom operators by name only.
template <class Spec>
std::string spec_text(const Spec& spec) {
  std::string out(algorithm_name(Spec::kAlgorithm));
  for (const auto& f : fields_as_text(spec)) out += " " + f.name + "=" + f.value;
  return out;
}

// A spec's summary (logs, entries, errors): its spec text. Each algorithm's namespace
// names it (`merge_sort::summary`).
template <class Spec>
requires requires { Spec::kAlgorithm; }
std::string summary(const Spec& spec) { return spec_text(spec); }

}  // namespace cccl_cache::algos
