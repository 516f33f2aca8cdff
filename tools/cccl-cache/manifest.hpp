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

// Hard limits on what one manifest may cost to read and expand. Array fields multiply,
// so a few lines can ask for millions of specs: the expansion is counted before it
// is made.
struct ManifestLimits {
  std::uint64_t max_file_bytes = 1u << 20;  // the manifest file itself
  std::uint64_t max_specs = 10'000;         // specs expanded from all tables, duplicates included
  std::uint64_t max_expanded_bytes = 64u
                                     << 20;  // field values and operator sources copied into them
};

// Parses manifest text; `base_dir` resolves source_file paths and `source_name` names
// the file in errors. Error invalid_argument: "<file>:<line>: <what is wrong>", also
// when the expansion exceeds `limits`. Never throws (except std::bad_alloc).
Result<Manifest> parse_manifest(std::string_view text, const std::filesystem::path& base_dir,
                                std::string_view source_name, const ManifestLimits& limits = {});

// Reads (at most limits.max_file_bytes) and parses a manifest file. Error
// invalid_argument (also for an unreadable, too large or directory path).
Result<Manifest> load_manifest(const std::filesystem::path& file,
                               const ManifestLimits& limits = {});

}  // namespace cccl_cache::cli
