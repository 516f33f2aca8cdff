// Algorithm specs as text in the CLI: the library's syntax
// (cccl_cache/algos/spec_text.hpp) with source_file=PATH read from disk, relative to a
// base directory (a manifest's), under a size limit and without ever showing a file
// that does not hold the operator.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/spec_text.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::cli {

using algos::AnySpec;
using algos::known_algorithms;
using algos::OperatorTable;
using algos::SpecFields;
using algos::tokenize_spec_text;

// The most a custom operator's source may hold (NVRTC comparators: merge_sort::validate).
inline constexpr std::uint64_t kMaxOperatorSourceBytes = 1u << 20;

// Reads the source of custom operator `op_name` from `path` (at most
// kMaxOperatorSourceBytes). The file must be text (no NUL or other control bytes but
// tab, line and page breaks) that names `op_name` as a function (`op_name(`) and says
// `__device__`; otherwise the error says so without showing any of the file's content
// (a mistyped path must not print someone's secrets). Error invalid_argument.
Result<std::string> read_operator_source(const std::filesystem::path& path,
                                         std::string_view op_name);

// The library's functions with source_file paths read by read_operator_source,
// relative to `base_dir` (when not empty).
Result<AnySpec> spec_from_fields(std::string_view algorithm, const SpecFields& fields,
                                 const OperatorTable& ops, const std::filesystem::path& base_dir = {});
Result<AnySpec> parse_spec_tokens(const std::vector<std::string>& tokens,
                                  const OperatorTable& ops = {},
                                  const std::filesystem::path& base_dir = {});
Result<AnySpec> parse_spec_text(std::string_view text, const OperatorTable& ops = {},
                                const std::filesystem::path& base_dir = {});

// The spec in this syntax (registry's spec_text: custom operators by name only).
inline std::string to_spec_text(const AnySpec& spec) { return algos::spec_text(spec); }

}  // namespace cccl_cache::cli
