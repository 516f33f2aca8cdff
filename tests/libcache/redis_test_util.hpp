// Helpers for the Redis tier tests: remote configs, simulated hosts (a local LMDB
// directory each, one shared Redis) and raw compressed envelopes.
#pragma once

#include <gtest/gtest.h>
#include <zstd.h>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/redis_tier.hpp"
#include "cccl_cache/cache/tiers.hpp"
#include "test_util.hpp"

namespace cccl_cache::test {

inline Config::Remote remote_config(const std::string& url, std::uint32_t timeout_ms = 200) {
  Config::Remote r;
  r.url = url;
  r.timeout_ms = timeout_ms;
  r.retry_ms = 100;
  return r;
}

inline std::unique_ptr<RedisTier> open_remote(const Config::Remote& remote) {
  auto t = RedisTier::open(remote);
  if (!t) ADD_FAILURE() << t.error().describe();
  return t ? std::move(*t) : nullptr;
}

// One simulated host: its own local store in `dir`, the shared Redis at `url`, and the
// host claim and cluster lease (`lease_ms`; waits bounded by `wait_ms`).
inline std::shared_ptr<TierStack> open_host(const std::filesystem::path& dir, const std::string& url,
                                            std::uint32_t lease_ms = 5000,
                                            std::uint32_t wait_ms = 10000) {
  Config c = test_config(dir);
  c.remote = remote_config(url);
  c.remote.lease_ms = lease_ms;
  c.build_wait_ms = wait_ms;
  auto s = TierStack::open(c);
  if (!s) ADD_FAILURE() << s.error().describe();
  return s ? *s : nullptr;
}

// What the Redis tier stores for (meta, payload).
inline std::string compressed_envelope(const EntryMeta& meta, std::span<const std::byte> payload) {
  EnvelopeFields f{meta.algorithm, meta.summary, meta.toolchain, meta.payload_format, 1};
  std::vector<std::byte> env(*envelope_size(f, payload.size()));
  encode_envelope(env, f, payload);
  std::string out(ZSTD_compressBound(env.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), env.data(), env.size(), 3));
  return out;
}

}  // namespace cccl_cache::test
