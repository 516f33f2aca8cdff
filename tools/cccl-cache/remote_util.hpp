// The remote tier as the CLI opens it: from the configuration, with a time bound fit
// for an operator's command rather than for a request.
#pragma once

#include <cstdint>
#include <memory>

#include "cccl_cache/cache/redis_tier.hpp"
#include "context.hpp"

namespace cccl_cache::cli {

// The time bound of the CLI's remote operations unless --timeout-ms is given: the
// configured one, but at least this (a command may move many entries at once).
inline constexpr std::uint32_t kCliRemoteTimeoutMs = 2000;

// Opens config.remote with `timeout_ms` (0: the default above). Errors:
// invalid_argument when no remote is configured, those of RedisTier::open.
Result<std::unique_ptr<RedisTier>> open_remote_tier(const Config& config, std::uint32_t timeout_ms);

}  // namespace cccl_cache::cli
