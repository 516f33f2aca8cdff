// Checking what an entry holds, shared by verify, import, inspect and why.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::cli {

enum class CheckStatus {
  ok,         // the payload deserializes and agrees with its key and metadata
  bad,        // it does not (reason says why)
  unchecked,  // another algorithm or payload format than this tool reads: checksum only
  stale,      // sound, but built by another toolchain than this cccl-cache's: its key cannot
              // be recomputed here and this toolchain never uses it (reason says which)
};

struct CheckResult {
  CheckStatus status = CheckStatus::ok;
  std::string reason;  // empty when ok
};

// Checks a verified payload (its envelope checksum already matched) by its
// algorithm's rules (registry check_blob: the cubin's kernels and launch bounds too) and checks it against the
// metadata (algorithm, toolchain) and the key: CC, and the key recomputed from the
// payload's own spec, CC and toolchain. The key covers the full toolchain (compile
// options included) while a payload records only its fingerprint, so a payload of
// another toolchain than this process's is `stale`, never `ok`. Never throws or crashes.
CheckResult check_payload(const CacheKey& key, const EntryMeta& meta,
                          std::span<const std::byte> payload);

// The checked build record of a payload (a view into it); error when it does not
// pass its algorithm's checks.
Result<algos::BuildRecordView> decode_record(const CacheKey& key,
                                             std::span<const std::byte> payload);

// The summary shown for an entry ("merge_sort keys=float32 ..."), derived from the
// spec inside its payload; empty when the payload is of an unknown algorithm or
// payload format, or does not pass its checks. What an archive or another writer
// claims as the summary is never used.
std::string derived_summary(const CacheKey& key, const EntryMeta& meta,
                            std::span<const std::byte> payload);

}  // namespace cccl_cache::cli
