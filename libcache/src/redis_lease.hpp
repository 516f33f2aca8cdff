// The cluster build lease: SET <lease key> <token> NX PX <lease_for>. Private to libcache.
#pragma once

#include <chrono>
#include <memory>

#include "cccl_cache/cache/claim.hpp"
#include "redis_client.hpp"

namespace cccl_cache::detail {

// A claimer whose claim is a lease in Redis: the holder builds; the others poll for
// the entry with backoff (5 ms doubling to 200 ms) until it appears, the lease
// expires or is released (then one of them takes it), or `wait_bound` passes
// (unclaimed: build locally). A holder that dies leaves a lease that expires after
// `lease_for`. While the remote is unavailable every claim is unclaimed at once.
std::shared_ptr<BuildClaimer> make_redis_lease(std::shared_ptr<RedisClient> client,
                                               std::chrono::milliseconds lease_for,
                                               std::chrono::milliseconds wait_bound);

}  // namespace cccl_cache::detail
