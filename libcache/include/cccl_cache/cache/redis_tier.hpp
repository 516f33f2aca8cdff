// The Redis remote tier and the cluster build lease (hiredis).
//
// Keys: "cccl-cache:e<envelope version>:<CacheKey::to_string()>" (entries) and
// "...:lease:<key>" (leases), so stores of different formats never meet. Value: the
// entry's envelope (envelope.hpp), zstd-compressed, as one frame that carries its size,
// then the entry's detached signature text ("name:base64", signing.hpp) when it was
// published signed (the bytes after the frame; none: unsigned). A fetched value is decompressed
// under a size cap and its envelope checksum verified before anyone sees it (a
// corrupt or truncated value is rejected and counted). Publishing is SET NX: the first
// writer wins and a value is visible whole or not at all.
//
// Availability: every operation is bounded by remote.timeout_ms (connecting included);
// a failure or timeout opens a circuit breaker for remote.retry_ms (doubling to 30 s
// while it stays down), during which operations miss at once without touching the
// network. The first failure of an outage and the recovery are logged once each.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <span>

#include "cccl_cache/cache/build_claim.hpp"
#include "cccl_cache/cache/tier.hpp"

namespace cccl_cache {

class RedisTier : public Tier {
 public:
  // No connection is made here. Errors: invalid_argument (remote.url),
  // io (remote.password_file unreadable).
  static Result<std::unique_ptr<RedisTier>> open(const Config::Remote& remote);

  // Round trip to the server now (the breaker is reset first). Errors: io, permission.
  virtual Result<std::chrono::nanoseconds> ping() = 0;
  // Tier::get_many: every key in one MGET (one round trip, one request counted).
  // The cluster lease over this tier's connection (see make_redis_lease).
  virtual std::shared_ptr<BuildClaim> lease(std::chrono::milliseconds lease_for) = 0;
  // Adds this client's counters since the last flush to the server's totals of every
  // client (a hash beside the entries); done by itself at most every 10 s while it is
  // used and on destruction. Errors as for ping (the delta is kept for the next flush).
  virtual Result<void> flush_stats() = 0;
  // The totals of every client that flushed (available: whether the server answered).
  virtual Result<TierStats> shared_stats() = 0;
  // The Redis key of an entry.
  static std::string entry_key(const CacheKey& key);
};

}  // namespace cccl_cache
