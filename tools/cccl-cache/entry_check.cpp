#include "entry_check.hpp"

#include "cccl_cache/algos/merge_sort/serialize.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/toolchain.hpp"

namespace cccl_cache::cli {

namespace ms = algos::merge_sort;

Result<ms::BuildResult> decode_merge_sort(const CacheKey& key, std::span<const std::byte> payload) {
  return ms::deserialize(payload, key.cc);
}

CheckResult check_payload(const CacheKey& key, const EntryMeta& meta,
                          std::span<const std::byte> payload) {
  if (meta.algorithm != ms::kAlgorithmName) {
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
  auto result = decode_merge_sort(key, payload);
  if (!result) return {CheckStatus::bad, "does not deserialize: " + result.error().describe()};
  if (result->toolchain != meta.toolchain) {
    return {CheckStatus::bad, "payload toolchain '" + result->toolchain +
                                  "' differs from the metadata's '" + meta.toolchain + "'"};
  }
  const auto& tc = algos::Toolchain::current();
  if (result->toolchain != tc.fingerprint()) {
    return {CheckStatus::stale, "stale toolchain: built by '" + result->toolchain +
                                    "', this cccl-cache is '" + tc.fingerprint() +
                                    "' (its key cannot be checked here; never used by this "
                                    "toolchain)"};
  }
  if (const auto want = ms::cache_key(result->spec, result->cc, tc); want != key)
    return {CheckStatus::bad,
            "stored under the wrong key: its spec, CC and toolchain hash to " + want.to_string()};
  return {};
}

}  // namespace cccl_cache::cli
