// Checking what an entry holds, shared by verify, import, inspect and why.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::cli {

enum class CheckStatus {
  ok,         // the payload deserializes and agrees with its key and metadata
  bad,        // it does not (reason says why)
  unchecked,  // another algorithm or payload format than this tool reads: checksum only
};

struct CheckResult {
  CheckStatus status = CheckStatus::ok;
  std::string reason;  // empty when ok
};

// Deserializes a verified payload (its envelope checksum already matched) and checks it
// against the key (CC, and the key recomputed from the spec when the toolchain is this
// process's) and the metadata (algorithm, toolchain). Never throws or crashes.
CheckResult check_payload(const CacheKey& key, const EntryMeta& meta,
                          std::span<const std::byte> payload);

// The summary shown for an entry ("keys=float32 values=none cmp=less offset=int64"),
// derived from the spec inside its payload; empty when the payload is of another
// algorithm or payload format, or does not deserialize. What an archive or another
// writer claims as the summary is never used.
std::string derived_summary(const CacheKey& key, const EntryMeta& meta,
                            std::span<const std::byte> payload);

// The build result of a merge_sort payload; error when it does not deserialize.
Result<algos::merge_sort::BuildResult> decode_merge_sort(const CacheKey& key,
                                                         std::span<const std::byte> payload);

}  // namespace cccl_cache::cli
