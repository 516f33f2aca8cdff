#include "entry_check.hpp"

#include "cccl_cache/algos/toolchain.hpp"

namespace cccl_cache::cli {

Result<algos::BuildRecordView> decode_record(const CacheKey& key,
                                             std::span<const std::byte> payload) {
  return algos::check_blob(payload, key.cc);
}

std::string derived_summary(const CacheKey& key, const EntryMeta& meta,
                            std::span<const std::byte> payload) {
  if (algos::find_algorithm(meta.algorithm) == nullptr ||
      meta.payload_format != algos::kBuildFormatVersion)
    return {};
  auto record = decode_record(key, payload);
  return record ? algos::spec_text(algos::spec_of(*record)) : std::string();
}

CheckResult check_payload(const CacheKey& key, const EntryMeta& meta,
                          std::span<const std::byte> payload) {
  const auto* algorithm = algos::find_algorithm(meta.algorithm);
  if (algorithm == nullptr) {
    return {CheckStatus::unchecked,
            "algorithm '" + meta.algorithm + "' is unknown to this cccl-cache (checksum only)"};
  }
  if (meta.payload_format != algos::kBuildFormatVersion) {
    return {CheckStatus::unchecked, "payload format " + std::to_string(meta.payload_format) +
                                        " (this cccl-cache reads format " +
                                        std::to_string(algos::kBuildFormatVersion) +
                                        "; checksum only)"};
  }
  if (meta.payload_size != payload.size()) {
    return {CheckStatus::bad, "metadata says " + std::to_string(meta.payload_size) +
                                  " payload bytes, found " + std::to_string(payload.size())};
  }
  auto record = decode_record(key, payload);
  if (!record) return {CheckStatus::bad, "does not deserialize: " + record.error().describe()};
  if (record->algorithm != algorithm->id) {
    return {CheckStatus::bad, "payload holds " + std::string(algos::algorithm_name(record->algorithm)) +
                                  ", the metadata says " + meta.algorithm};
  }
  if (record->toolchain != meta.toolchain) {
    return {CheckStatus::bad, "payload toolchain '" + std::string(record->toolchain) +
                                  "' differs from the metadata's '" + meta.toolchain + "'"};
  }
  const auto& tc = algos::Toolchain::current();
  if (const std::string own = tc.fingerprint(algorithm->name); record->toolchain != own) {
    return {CheckStatus::stale, "stale toolchain: built by '" + std::string(record->toolchain) +
                                    "', this cccl-cache is '" + own +
                                    "' (its key cannot be checked here; never used by this "
                                    "toolchain)"};
  }
  if (const auto want = algos::cache_key(algos::spec_of(*record), record->cc, tc); want != key)
    return {CheckStatus::bad,
            "stored under the wrong key: its spec, CC and toolchain hash to " + want.to_string()};
  return {};
}

}  // namespace cccl_cache::cli
