// Algorithm specs as text: the syntax shared by manifests and `cccl-cache why`,
// for every algorithm of the registry (cccl_cache/algos/registry.hpp):
//
//   merge_sort keys=float32 values=none compare=less offset=int64
//   merge_sort keys=float32 compare=abs_less source_file=ops/abs_less.cuh
//
// An algorithm name, then field=value for the fields of its spec (missing optional
// fields take their defaults). A custom operator (a field value that is not a
// well-known operator) gets its CUDA C++ source from source=..., source_file=PATH
// (when the spec has one custom operator) or an operator table (a manifest's
// [operators]).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::cli {

using algos::AnySpec;

// field name -> value, as written.
using SpecFields = std::map<std::string, std::string>;
// Custom operator name -> CUDA C++ source.
using OperatorTable = std::map<std::string, std::string>;

// The most a custom operator's source may hold (NVRTC comparators: merge_sort::validate).
inline constexpr std::uint64_t kMaxOperatorSourceBytes = 1u << 20;

// Reads the source of custom operator `op_name` from `path` (at most
// kMaxOperatorSourceBytes). The file must be text (no NUL or other control bytes but
// tab, line and page breaks) that names `op_name` as a function (`op_name(`) and says
// `__device__`; otherwise the error says so without showing any of the file's content
// (a mistyped path must not print someone's secrets). Error invalid_argument.
Result<std::string> read_operator_source(const std::filesystem::path& path,
                                         std::string_view op_name);

// A validated spec of `algorithm` from fields. source_file paths are relative to
// `base_dir`. Error invalid_argument naming the field: unknown algorithm, field or
// type, a missing required field, a custom operator without source, an unreadable
// source file.
Result<AnySpec> spec_from_fields(std::string_view algorithm, const SpecFields& fields,
                                 const OperatorTable& ops, const std::filesystem::path& base_dir = {});

// Splits "merge_sort keys=float32 source='a b'" into tokens; single or double quotes
// group a value. Error invalid_argument on an unterminated quote.
Result<std::vector<std::string>> tokenize_spec_text(std::string_view text);

// Parses tokens: the algorithm name, then field=value tokens (each one token, as
// given; a value may contain spaces). Error invalid_argument with the reason.
Result<AnySpec> parse_spec_tokens(const std::vector<std::string>& tokens,
                                  const OperatorTable& ops = {},
                                  const std::filesystem::path& base_dir = {});

// tokenize_spec_text + parse_spec_tokens.
Result<AnySpec> parse_spec_text(std::string_view text, const OperatorTable& ops = {},
                                const std::filesystem::path& base_dir = {});

// The spec in this syntax (registry's spec_text: custom operators by name only).
inline std::string to_spec_text(const AnySpec& spec) { return algos::spec_text(spec); }

// The registered algorithms' names, comma-separated (for messages).
std::string known_algorithms();

}  // namespace cccl_cache::cli
