// Build claims: at most one builder of a key at a time across processes (and, composed
// with a cluster lease, across hosts). A process that misses a key claims it before
// building; the others wait for the claim, bounded, then read the entry its holder
// published. The host claim is an flock(2) per key in <cache dir>/claims/: the kernel
// drops it the moment its holder dies, SIGKILL included, so a waiter never waits for a
// dead builder.
//
// The protocol a caller follows (TierStack::load_or_build does):
//   1. look the key up in every tier; on a miss
//   2. hold = claim(key, now + build_wait, appeared)   (waits while another holds it;
//      a claim may poll `appeared`, which looks the key up again, and stop waiting
//      when the entry shows up: a cluster lease does, with backoff)
//   3. look the key up again: whoever held the claim before may have published it
//   4. still a miss: build, publish, then release the hold (destroy it)
// A claim that times out, sees the entry appear (null hold) or fails (error) never
// blocks the request: the caller reads again and builds without one.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/key.hpp"

namespace cccl_cache {

class BuildClaim {
 public:
  using Clock = std::chrono::steady_clock;

  // A claim held; destroying it releases the claim. Release publishes nothing: publish
  // the entry first.
  class Hold {
   public:
    virtual ~Hold() = default;
    // True when another holder had the claim first and this one waited for it (the
    // claim was refused at least once before it was taken).
    bool waited = false;
  };

  // Looks the entry up again (every tier); true once another builder's entry is there.
  using AppearedFn = std::function<bool()>;

  virtual ~BuildClaim() = default;

  // Claims the right to build `key`, waiting (polling with backoff) while another
  // holder has it, until `deadline`. Returns the hold, or null when the deadline came
  // first (the holder is still building: build without a claim) or `appeared` (may be
  // empty; a claim need not call it) returned true. Either way, read the entry again
  // before building. Errors: io, permission, unavailable (the claim could not be taken;
  // build without it). Thread-safe; two holds of one key in one process exclude each
  // other too.
  virtual Result<std::unique_ptr<Hold>> claim(const CacheKey& key, Clock::time_point deadline,
                                              const AppearedFn& appeared = {}) = 0;

  // Short name for messages: "host", "redis", "host+redis".
  virtual std::string name() const = 0;
};

// Claims taken in order within one deadline: the host claim first (one process per host
// asks further), then a cluster lease. Holds all of them, released in reverse order. A
// later claim that times out, sees the entry appear or fails leaves the earlier ones
// held and returns them: the caller reads again and builds (if still missing) while
// holding what it got, so that this host's other processes keep waiting for it instead
// of building too. After a claim that waited (its holder publishes before it releases),
// the chain looks for the entry before taking the next claim and, when it is there,
// returns what it holds. Null only when the first claim times out or sees the entry appear.
class ClaimChain final : public BuildClaim {
 public:
  explicit ClaimChain(std::vector<std::shared_ptr<BuildClaim>> claims);
  Result<std::unique_ptr<Hold>> claim(const CacheKey& key, Clock::time_point deadline,
                                      const AppearedFn& appeared = {}) override;
  std::string name() const override;
  bool empty() const { return claims_.empty(); }

 private:
  std::vector<std::shared_ptr<BuildClaim>> claims_;
};

// The host claim of the store at config.dir: lock files in <dir>/claims/ (created
// 0700, or 02770 with `shared`; vetted as the store's directory is: never a symlink,
// never world-writable, owner and group by the same rules). Returns null when there
// is nothing to coordinate: config.host_single_flight off, the store disabled,
// read-only or immutable, or its directory absent or not writable (a read-only medium,
// another user's cache: nobody publishes there). Errors: permission (the claims
// directory fails the checks; the message says what to run), io.
Result<std::shared_ptr<BuildClaim>> open_host_claim(const Config& config);

}  // namespace cccl_cache
