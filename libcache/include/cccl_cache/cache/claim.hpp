// Build claims: one of many callers missing the same key builds, the others wait for
// its entry. Claimers compose in order: a host-wide claim (processes of one host), then
// a cluster lease (hosts sharing a remote tier); TierStack::load_or_build takes each in
// turn around a build.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "cccl_cache/cache/key.hpp"

namespace cccl_cache {

// Held while its owner builds; released on destruction (also when the holder dies,
// where the claimer's mechanism allows: a lock of the kernel, a lease's expiry).
class BuildClaim {
 public:
  virtual ~BuildClaim() = default;
};

enum class ClaimOutcome {
  claimed,    // this caller holds the claim: build, publish, then drop it
  appeared,   // another builder's entry became available while waiting: load it
  unclaimed,  // no claim (wait bound passed, service unavailable): build anyway
};

struct Claimed {
  ClaimOutcome outcome = ClaimOutcome::unclaimed;
  std::unique_ptr<BuildClaim> claim;  // set when claimed
};

class BuildClaimer {
 public:
  virtual ~BuildClaimer() = default;
  virtual const std::string& name() const = 0;
  // Waits until this caller holds the claim on `key` (claimed), `appeared()` returns
  // true (polled with backoff while another holder builds), or the claimer's wait bound
  // passes or its service fails (unclaimed). Never fails a request. Thread-safe.
  virtual Claimed claim(const CacheKey& key, const std::function<bool()>& appeared) = 0;
};

}  // namespace cccl_cache
