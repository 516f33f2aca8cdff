// A small pool of blocking hiredis connections to one Redis, with a per-operation time
// bound and a circuit breaker. Private to libcache (the Redis tier and the cluster
// lease share one). Thread-safe: each operation takes a connection of its own.
#pragma once

#include <hiredis/hiredis.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "config_tiers.hpp"

namespace cccl_cache::detail {

struct ReplyFree {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using RedisReply = std::unique_ptr<redisReply, ReplyFree>;

class RedisClient {
 public:
  // Parses remote.url and reads remote.password_file. Connects lazily.
  // Errors: invalid_argument (URL), io (password file unreadable).
  static Result<std::shared_ptr<RedisClient>> make(const Config::Remote& remote);
  ~RedisClient();

  // Runs one command within the time bound (connecting first when needed). Errors:
  // unsupported while the breaker is open (no attempt is made), io when the server
  // cannot be reached or does not answer in time (the breaker opens; the first
  // failure of an outage is logged), corrupt for a Redis error reply (no trip).
  Result<RedisReply> command(std::span<const std::string_view> argv);
  // Runs several commands in one round trip (pipelined), same rules.
  Result<std::vector<RedisReply>> pipeline(std::span<const std::vector<std::string_view>> cmds);

  // Whether the breaker is closed (requests try the server).
  bool available() const;
  // Closes the breaker so the next command tries the server now (CLI ping).
  void reset_breaker();
  const std::string& url() const { return url_; }
  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  RedisClient() = default;
  struct Conn;
  Result<redisContext*> take(std::chrono::steady_clock::time_point deadline);
  void give_back(redisContext* c);
  void trip(const std::string& why);
  void recovered();

  RedisAddress address_;
  std::string url_;  // without the password
  std::chrono::milliseconds timeout_{5};
  std::chrono::milliseconds retry_base_{1000};

  std::mutex mutex_;
  std::vector<redisContext*> idle_;
  pid_t owner_ = ::getpid();  // the process the pooled connections belong to
  std::chrono::steady_clock::time_point down_until_{};
  std::chrono::milliseconds retry_{0};
  std::atomic<bool> down_{false};
};

}  // namespace cccl_cache::detail
