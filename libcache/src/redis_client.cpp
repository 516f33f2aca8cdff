#include "redis_client.hpp"

#include <signal.h>
#include <unistd.h>

#include <fstream>

#include "cccl_cache/cache/log.hpp"

namespace cccl_cache::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kMaxIdle = 8;
constexpr std::chrono::milliseconds kMaxRetry{30'000};

timeval to_timeval(std::chrono::microseconds us) {
  if (us.count() < 1000) us = std::chrono::microseconds(1000);
  return timeval{static_cast<time_t>(us.count() / 1'000'000),
                 static_cast<suseconds_t>(us.count() % 1'000'000)};
}

// A write to a connection the server closed raises SIGPIPE, which would end the
// process: blocked in this thread for the call, and a pending one consumed.
class NoSigpipe {
 public:
  NoSigpipe() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~NoSigpipe() {
    if (!was_pending_) {
      sigset_t pending;
      sigpending(&pending);
      if (sigismember(&pending, SIGPIPE) == 1) {
        timespec zero{0, 0};
        while (sigtimedwait(&pipe_, nullptr, &zero) > 0) {
        }
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  NoSigpipe(const NoSigpipe&) = delete;
  NoSigpipe& operator=(const NoSigpipe&) = delete;

 private:
  sigset_t pipe_{}, old_{};
  bool was_pending_ = false;
};

std::string context_error(redisContext* c) {
  return c->errstr[0] ? std::string(c->errstr) : "connection error " + std::to_string(c->err);
}

}  // namespace

Result<std::shared_ptr<RedisClient>> RedisClient::make(const Config::Remote& remote) {
  CCCL_CACHE_TRY(RedisAddress address, parse_redis_url(remote.url));
  if (!remote.password_file.empty()) {
    std::ifstream in(remote.password_file);
    std::string line;
    if (!in || !std::getline(in, line))
      return fail(ErrorCode::io, "cannot read the remote password file " +
                                     remote.password_file.string());
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    address.password = line;
  }
  auto c = std::shared_ptr<RedisClient>(new RedisClient());
  c->url_ = "redis://" + address.host + ":" + std::to_string(address.port) + "/" +
            std::to_string(address.db);
  c->address_ = std::move(address);
  c->timeout_ = std::chrono::milliseconds(std::max<std::uint32_t>(remote.timeout_ms, 1));
  c->retry_base_ = std::chrono::milliseconds(remote.retry_ms);
  return c;
}

RedisClient::~RedisClient() {
  for (redisContext* c : idle_) redisFree(c);
}

bool RedisClient::available() const { return !down_.load(std::memory_order_relaxed); }

void RedisClient::reset_breaker() {
  std::lock_guard lock(mutex_);
  down_until_ = {};
}

void RedisClient::trip(const std::string& why) {
  bool log = false;
  std::chrono::milliseconds wait;
  {
    std::lock_guard lock(mutex_);
    retry_ = retry_.count() == 0 ? retry_base_ : std::min(retry_ * 2, kMaxRetry);
    wait = retry_;
    down_until_ = Clock::now() + retry_;
    for (redisContext* c : idle_) redisFree(c);  // they would fail the same way
    idle_.clear();
    log = !down_.exchange(true);
  }
  if (log)
    logger()->warn("remote tier {}: {}; using the local tiers only, retrying after {} ms",
                   url_, why, wait.count());
}

void RedisClient::recovered() {
  if (!down_.load(std::memory_order_relaxed)) return;
  {
    std::lock_guard lock(mutex_);
    retry_ = std::chrono::milliseconds(0);
    if (!down_.exchange(false)) return;
  }
  logger()->warn("remote tier {}: reachable again", url_);
}

Result<redisContext*> RedisClient::take(Clock::time_point deadline) {
  {
    std::lock_guard lock(mutex_);
    if (const pid_t pid = ::getpid(); pid != owner_) {
      // A fork()ed child: the pooled connections are the parent's (replies would
      // interleave). Closing the child's descriptors leaves the parent's intact.
      for (redisContext* c : idle_) redisFree(c);
      idle_.clear();
      owner_ = pid;
    }
    if (Clock::now() < down_until_)
      return fail(ErrorCode::unsupported, "remote tier " + url_ + " is unavailable (circuit open)");
    if (!idle_.empty()) {
      redisContext* c = idle_.back();
      idle_.pop_back();
      return c;
    }
  }
  auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
  redisContext* c = redisConnectWithTimeout(address_.host.c_str(), address_.port, to_timeval(left));
  if (c == nullptr) return fail(ErrorCode::io, "cannot allocate a Redis connection");
  if (c->err) {
    std::string why = "cannot connect: " + context_error(c);
    redisFree(c);
    return fail(ErrorCode::io, why);
  }
  left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
  redisSetTimeout(c, to_timeval(left));
  auto hello = [&](std::vector<std::string_view> argv) -> Result<void> {
    std::vector<const char*> p;
    std::vector<std::size_t> n;
    for (auto a : argv) p.push_back(a.data()), n.push_back(a.size());
    RedisReply r(static_cast<redisReply*>(
        redisCommandArgv(c, static_cast<int>(p.size()), p.data(), n.data())));
    if (!r) return fail(ErrorCode::io, context_error(c));
    if (r->type == REDIS_REPLY_ERROR)
      return fail(ErrorCode::permission, std::string(argv[0]) + " refused: " + r->str);
    return {};
  };
  Result<void> ok;
  if (!address_.password.empty()) ok = hello({"AUTH", address_.password});
  const std::string db = std::to_string(address_.db);
  if (ok && address_.db != 0) ok = hello({"SELECT", db});
  if (!ok) {
    redisFree(c);
    return tl::unexpected(ok.error());
  }
  return c;
}

void RedisClient::give_back(redisContext* c) {
  std::lock_guard lock(mutex_);
  if (idle_.size() < kMaxIdle && Clock::now() >= down_until_)
    idle_.push_back(c);
  else
    redisFree(c);
}

Result<std::vector<RedisReply>> RedisClient::pipeline(
    std::span<const std::vector<std::string_view>> cmds) {
  NoSigpipe guard;
  const auto deadline = Clock::now() + timeout_;
  auto c = take(deadline);
  if (!c) {
    if (c.error().code != ErrorCode::unsupported) trip(c.error().message);
    return tl::unexpected(c.error());
  }
  auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
  redisSetTimeout(*c, to_timeval(left));
  for (const auto& argv : cmds) {
    std::vector<const char*> p;
    std::vector<std::size_t> n;
    for (auto a : argv) p.push_back(a.data()), n.push_back(a.size());
    redisAppendCommandArgv(*c, static_cast<int>(p.size()), p.data(), n.data());
  }
  std::vector<RedisReply> replies;
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(*c, &raw) != REDIS_OK || raw == nullptr) {
      std::string why = context_error(*c);
      redisFree(*c);
      trip(why);
      return fail(ErrorCode::io, "remote tier " + url_ + ": " + why);
    }
    replies.emplace_back(static_cast<redisReply*>(raw));
  }
  give_back(*c);
  recovered();
  return replies;
}

Result<RedisReply> RedisClient::command(std::span<const std::string_view> argv) {
  std::vector<std::vector<std::string_view>> one{{argv.begin(), argv.end()}};
  CCCL_CACHE_TRY(auto replies, pipeline(one));
  RedisReply r = std::move(replies.front());
  if (r->type == REDIS_REPLY_ERROR)
    return fail(ErrorCode::corrupt, "remote tier " + url_ + " answered: " + std::string(r->str));
  return r;
}

}  // namespace cccl_cache::detail
