// Reading a named input file (manifest, operator source) with a hard size limit, so
// that /dev/zero, a huge file or a directory gives a clear error instead of an
// unbounded read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::cli {

// Reads at most `max_bytes` from `path` (any file that is not a directory: a regular
// file, a pipe, /dev/stdin). `what` names the file in errors ("manifest"). Errors
// invalid_argument: "<what> '<path>' cannot be read (<reason>)", "... is a directory",
// "... is larger than <max> (the limit for a <what>)". Never reads more than
// max_bytes + 1 bytes.
Result<std::string> read_file_bounded(const std::filesystem::path& path, std::uint64_t max_bytes,
                                      std::string_view what);

}  // namespace cccl_cache::cli
