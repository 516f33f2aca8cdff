// Algorithm specs as text, for every algorithm of the registry (registry.hpp): the
// syntax of manifests, `cccl-cache why` and the C ABI (cccl_cache.h):
//
//   merge_sort keys=float32 values=none compare=less offset=int64
//   merge_sort keys=float32 compare=abs_less source='__device__ bool abs_less(...) {...}'
//
// An algorithm name, then field=value for the fields of its spec (missing optional
// fields take their defaults). A custom operator (a field value that is not a
// well-known operator) gets its CUDA C++ source from source=..., source_file=PATH (when
// the spec has one custom operator and the caller reads files: SourceFileReader) or an
// operator table (a manifest's [operators]). A struct element type is written
// NAME:SIZE/ALIGN, its definition given as struct.NAME='struct NAME {...};' (or by the
// operator table under NAME):
//
//   select type=pair:8/4 struct.pair='struct pair { int k; float v; };' op=is_big source='...'
//
// Single or double quotes group a value.
// Printing is the registry's spec_text() (custom operators by name only).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {

// field name -> value, as written.
using SpecFields = std::map<std::string, std::string>;
// Custom operator name -> CUDA C++ source.
using OperatorTable = std::map<std::string, std::string>;
// Reads the source of custom operator `op_name` from source_file=`path`, as given. Empty:
// source_file is refused (invalid_argument: give source=... instead).
using SourceFileReader =
    std::function<Result<std::string>(const std::string& path, std::string_view op_name)>;

// The field-name prefix of a struct's definition in spec text ("struct.pair=...").
inline constexpr std::string_view kStructPrefix = "struct.";

// The name a field's source is defined under in an operator table: for a field's text
// value, a custom operator's or a struct's name (the value up to a state or struct layout,
// "scaled_plus:4/4" -> "scaled_plus", "pair:8/4" -> "pair"), or an iterator's first custom
// transform operator ("transform(square,float32)" -> "square"). What spec_from_fields
// looks a field's source up by, so that a spec's fields and sources parse back.
std::string definition_name(std::string_view value);

// The registered algorithms' names, comma-separated (for messages).
std::string known_algorithms();

// A validated spec of `algorithm` from fields; "lower_bound" and "upper_bound" name
// binary_search with upper=false / true (no upper field then). Error invalid_argument
// naming the field: unknown algorithm, field or type, a missing required field, a custom
// operator without source, both source and source_file, source_file without a reader;
// and the reader's errors.
[[nodiscard]] Result<AnySpec> spec_from_fields(std::string_view algorithm, const SpecFields& fields,
                                               const OperatorTable& ops = {},
                                               const SourceFileReader& read_source = {});

// Splits "merge_sort keys=float32 source='a b'" into tokens; single or double quotes
// group a value. Error invalid_argument on an unterminated quote.
[[nodiscard]] Result<std::vector<std::string>> tokenize_spec_text(std::string_view text);

// Parses tokens: the algorithm name, then field=value tokens (each one token, as given;
// a value may contain spaces). Error invalid_argument with the reason.
[[nodiscard]] Result<AnySpec> parse_spec_tokens(const std::vector<std::string>& tokens,
                                                const OperatorTable& ops = {},
                                                const SourceFileReader& read_source = {});

// tokenize_spec_text + parse_spec_tokens.
[[nodiscard]] Result<AnySpec> parse_spec_text(std::string_view text, const OperatorTable& ops = {},
                                              const SourceFileReader& read_source = {});

}  // namespace cccl_cache::algos
