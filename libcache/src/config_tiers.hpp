// The shared-tier part of Config (images, remote): TOML keys, environment variables
// and the remote URL grammar. Private to libcache; config.cpp calls the two hooks.
#pragma once

#include <toml++/toml.h>

#include <optional>
#include <string>
#include <string_view>

#include "cccl_cache/cache/config.hpp"

namespace cccl_cache::detail {

// Applies top-level TOML key `key` if it is a tier key: nullopt when it is not one,
// else the outcome (invalid_argument naming the key).
std::optional<Result<void>> apply_tier_key(Config& c, const std::string& key,
                                           const toml::node& node);
// CCCL_CACHE_IMAGES, CCCL_CACHE_REMOTE*, CCCL_CACHE_LEASE_MS: invalid_argument naming
// the variable on a bad value.
Result<void> apply_tier_env(Config& c);

struct RedisAddress {
  std::string host;
  int port = 6379;
  int db = 0;
  std::string password;  // empty: no AUTH
};
// "redis://[:password@]host[:port][/db]" (host may be [v6]). invalid_argument otherwise.
Result<RedisAddress> parse_redis_url(std::string_view url);

}  // namespace cccl_cache::detail
