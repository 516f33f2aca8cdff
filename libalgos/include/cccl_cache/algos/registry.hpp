// The registry: every algorithm by name and id, with what tools need to handle its
// specs without knowing its types (the CLI's prewarm, ls, inspect, why, verify and
// export go through it). Adding an algorithm adds one line to its table
// (src/registry.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_fields.hpp"

namespace cccl_cache::algos {

// A spec of any algorithm, held in its canonical form (its encoded fields).
struct AnySpec {
  AlgorithmId algorithm = AlgorithmId::merge_sort;
  std::vector<std::byte> fields;  // encode_fields() of the algorithm's spec
  bool operator==(const AnySpec&) const = default;
};

template <class Spec>
AnySpec to_any(const Spec& spec) {
  return {Spec::kAlgorithm, encode_fields(spec)};
}

// The spec a build record holds.
inline AnySpec spec_of(const BuildRecordView& record) {
  return {record.algorithm, {record.spec.begin(), record.spec.end()}};
}

// A field of an algorithm's spec, for tools: its name, whether it must be given,
// whether it is an operator (its source travels with it) and its default as text.
struct FieldDesc {
  std::string name;
  bool required = false;
  bool is_operator = false;
  bool is_element_type = false;  // may be a struct (NAME:SIZE/ALIGN with its definition)
  std::string default_text;
  bool is_iterator = false;  // a transform iterator's custom operator takes a source too
};

struct AlgorithmEntry {
  AlgorithmId id;
  std::string_view name;
  // The spec's fields, in declaration order.
  std::vector<FieldDesc> (*fields)();
  // The kernels' roles (record order) and the runtime values' names (value order).
  std::span<const std::string_view> kernel_roles;
  std::vector<std::string_view> (*value_names)();
  // A validated spec from fields given as text (absent optional fields take their
  // defaults; an operator field's source in FieldText::source). Error
  // invalid_argument naming the algorithm and the field (unknown, missing, bad value).
  Result<AnySpec> (*from_text)(const std::vector<FieldText>& fields);
  // The store key of encoded spec fields (with the algorithm's codegen digest; 0 for
  // bytes that do not decode).
  CacheKey (*key)(std::span<const std::byte> spec_fields, std::uint32_t cc, const Toolchain& tc);
  // The spec's fields as text. Error corrupt on malformed bytes.
  Result<std::vector<FieldText>> (*to_text)(std::span<const std::byte> spec_fields);
  // Builds for sm_<cc> (no GPU needed). Errors as the algorithm's build().
  Result<BuildRecord> (*build)(std::span<const std::byte> spec_fields, std::uint32_t cc);
  // The algorithm's checks of a parsed record (typed_view: spec fields, runtime
  // values, its own plausibility checks). Error corrupt.
  Result<void> (*check_record)(const BuildRecordView& record);
};

// Every registered algorithm, in id order.
std::span<const AlgorithmEntry> algorithms();
// nullptr if none has that name / id.
const AlgorithmEntry* find_algorithm(std::string_view name);
const AlgorithmEntry* find_algorithm(AlgorithmId id);

// The store key of `spec` for sm_<cc>.
[[nodiscard]] CacheKey cache_key(const AnySpec& spec, std::uint32_t cc, const Toolchain& tc = Toolchain::current());

// "merge_sort keys=float32 values=none compare=less offset=int64"; for bytes that do
// not decode, the algorithm's name and "<unreadable spec>".
std::string spec_text(const AnySpec& spec);

// A stored blob checked by its own algorithm's rules (parse_record, then the
// algorithm's check_blob). Errors as deserialize_view's.
[[nodiscard]] Result<BuildRecordView> check_blob(std::span<const std::byte> blob,
                                   std::optional<std::uint32_t> expected_cc = std::nullopt);

}  // namespace cccl_cache::algos
