// Prewarm manifests (TOML). The format is documented in config/manifest.example.toml:
//
//   arch = ["sm_80", "sm_90"]            # optional; --arch overrides it
//   [operators.abs_less]                 # custom operators, by name
//   source = "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }"
//   [[merge_sort]]                       # one table per spec; a field given as an
//   keys = ["float32", "int32"]          # array expands to one spec per element
//   compare = "abs_less"
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/error.hpp"
#include "spec_text.hpp"

namespace cccl_cache::cli {

struct Manifest {
  std::vector<std::uint32_t> archs;  // top-level `arch`, may be empty
  OperatorTable operators;           // [operators.NAME]
  std::vector<AnySpec> specs;        // expanded, duplicates removed, in file order
};

// Parses manifest text; `base_dir` resolves source_file paths and `source_name` names
// the file in errors. Error invalid_argument: "<file>:<line>: <what is wrong>".
Result<Manifest> parse_manifest(std::string_view text, const std::filesystem::path& base_dir,
                                std::string_view source_name);

// Reads and parses a manifest file. Error invalid_argument (also for an unreadable file).
Result<Manifest> load_manifest(const std::filesystem::path& file);

}  // namespace cccl_cache::cli
