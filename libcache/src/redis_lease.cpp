#include "redis_lease.hpp"

#include <unistd.h>

#include <atomic>
#include <random>
#include <thread>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/log.hpp"

namespace cccl_cache::detail {
namespace {

using Clock = BuildClaim::Clock;

// Deletes the lease only while it is still ours (it may have expired and been taken).
constexpr std::string_view kRelease =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
    "else return 0 end";

class Lease final : public BuildClaim::Hold {
 public:
  Lease(std::shared_ptr<RedisClient> client, std::string key, std::string token)
      : client_(std::move(client)), key_(std::move(key)), token_(std::move(token)) {}
  ~Lease() override {
    std::string_view argv[] = {"EVAL", kRelease, "1", key_, token_};
    (void)client_->command(argv);  // if it fails, the lease expires by itself
  }

 private:
  std::shared_ptr<RedisClient> client_;
  std::string key_, token_;
};

class RedisLease final : public BuildClaim {
 public:
  RedisLease(std::shared_ptr<RedisClient> client, std::chrono::milliseconds lease_for)
      : client_(std::move(client)), lease_for_(lease_for), name_("lease:" + client_->url()) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    std::random_device rd;
    prefix_ = std::string(host) + ":" + std::to_string(::getpid()) + ":" + std::to_string(rd()) + ":";
  }

  std::string name() const override { return name_; }

  Result<std::unique_ptr<Hold>> claim(const CacheKey& key, Clock::time_point deadline,
                                      const AppearedFn& appeared) override {
    const std::string lease_key = "cccl-cache:e" + std::to_string(kEnvelopeVersion) +
                                  ":lease:" + key.to_string();
    const std::string token = prefix_ + std::to_string(serial_.fetch_add(1));
    const std::string px = std::to_string(std::max<std::int64_t>(lease_for_.count(), 1));
    const auto start = Clock::now();
    auto backoff = std::chrono::milliseconds(5);
    bool refused = false;  // another host held the lease
    for (;;) {
      std::string_view argv[] = {"SET", lease_key, token, "NX", "PX", px};
      auto reply = client_->command(argv);
      if (!reply) return tl::unexpected(reply.error());  // build without the lease
      if ((*reply)->type == REDIS_REPLY_STATUS) {
        auto lease = std::make_unique<Lease>(client_, lease_key, token);
        lease->waited = refused;
        return std::unique_ptr<Hold>(std::move(lease));
      }
      refused = true;
      if (appeared && appeared()) return std::unique_ptr<Hold>();
      const auto now = Clock::now();
      if (now >= deadline) {
        if (!warned_.exchange(true))
          logger()->warn("{}: waited {} ms for another host's build of {}; building here "
                         "(further such warnings suppressed)",
                         name_,
                         std::chrono::duration_cast<std::chrono::milliseconds>(now - start).count(),
                         key.to_string());
        return std::unique_ptr<Hold>();
      }
      std::this_thread::sleep_for(std::min<Clock::duration>(backoff, deadline - now));
      backoff = std::min(backoff * 2, std::chrono::milliseconds(200));
    }
  }

 private:
  std::shared_ptr<RedisClient> client_;
  const std::chrono::milliseconds lease_for_;
  const std::string name_;
  std::string prefix_;
  std::atomic<std::uint64_t> serial_{0};
  std::atomic<bool> warned_{false};
};

}  // namespace

std::shared_ptr<BuildClaim> make_redis_lease(std::shared_ptr<RedisClient> client,
                                             std::chrono::milliseconds lease_for) {
  return std::make_shared<RedisLease>(std::move(client), lease_for);
}

}  // namespace cccl_cache::detail
