// The cluster build lease: SET <lease key> <token> NX PX <lease_for>. Private to libcache.
#pragma once

#include <chrono>
#include <memory>

#include "cccl_cache/cache/build_claim.hpp"
#include "redis_client.hpp"

namespace cccl_cache::detail {

// A build claim whose hold is a lease in Redis: the holder builds; the others poll for
// the entry (`appeared`) with backoff (5 ms doubling to 200 ms) until it appears (null
// hold), the lease expires or is released (then one of them takes it), or the deadline
// passes (null hold: build locally). A holder that dies leaves a lease that expires
// after `lease_for`. While the remote is unavailable a claim fails at once
// (ErrorCode::unavailable).
std::shared_ptr<BuildClaim> make_redis_lease(std::shared_ptr<RedisClient> client,
                                             std::chrono::milliseconds lease_for);

}  // namespace cccl_cache::detail
