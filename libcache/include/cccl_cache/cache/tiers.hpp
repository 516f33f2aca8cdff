// The tier stack: the local LMDB store, then read-only image tiers, then an optional
// remote tier, searched in that order. A hit in an image or the remote is written back
// to the local store (backfill) once the caller accepts it; a put goes to the local
// store and is published to the remote (write-through, first writer wins). A failing
// image or remote never fails a request: it counts an error, logs once and is a miss.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cccl_cache/cache/claim.hpp"
#include "cccl_cache/cache/tier.hpp"

namespace cccl_cache {

class TierStack {
 public:
  // Opens the stack `config` describes: Store::open(config) as the local tier, each of
  // config.images read-only (one that cannot be opened is skipped with a warning), and
  // config.remote.url as the remote tier (connected lazily; with a cluster lease
  // unless remote.read_only). Errors: those of Store::open.
  static Result<std::shared_ptr<TierStack>> open(const Config& config);
  // The same around an open local store (its config() names images and remote).
  static std::shared_ptr<TierStack> over(std::shared_ptr<Store> local);
  // Assembles a stack from parts (tests). `local` may be null (no local tier).
  TierStack(std::unique_ptr<Tier> local, std::vector<std::unique_ptr<Tier>> images,
            std::unique_ptr<Tier> remote);
  ~TierStack();
  TierStack(const TierStack&) = delete;
  TierStack& operator=(const TierStack&) = delete;

  // Appends a claimer taken by load_or_build after those added before (add the
  // host-wide claim before the cluster lease). Not thread-safe with requests.
  void add_claimer(std::shared_ptr<BuildClaimer> claimer);

  // Receives a verified payload and returns whether the caller can use it; a rejected
  // entry is a miss of that tier and is not backfilled.
  using AcceptFn = std::function<bool(std::span<const std::byte>)>;

  // Looks `key` up tier by tier until `accept` takes a payload. Returns the index of
  // the tier that served it (0 = local when there is one), nullopt on a miss. A local
  // hit is read in place (zero-copy, inside its read transaction). Errors: only the
  // local tier's (an image's or the remote's count and log once, then miss).
  Result<std::optional<std::size_t>> get(const CacheKey& key, const AcceptFn& accept);

  // Batched lookup for prewarm and start-up: the remote is asked for every local miss
  // in one round trip, accepted entries are backfilled. Returns how many were found.
  std::size_t fetch_many(std::span<const CacheKey> keys, const AcceptFn& accept);

  // Writes to the local tier, then publishes to the remote (if writable). Returns
  // the local tier's error (a remote failure is counted and logged once).
  Result<void> put(const CacheKey& key, const EntryMeta& meta, std::span<const std::byte> payload);

  struct Built {
    EntryMeta meta;
    std::vector<std::byte> payload;
  };
  struct Obtained {
    bool built = false;  // false: `accept` took an entry from a tier
    std::optional<std::size_t> tier;  // the tier that served it
  };
  // get(); on a miss takes the claimers' claims in order, re-checking after each, and
  // builds only if the entry still has not appeared; a build is put() (local and
  // remote) before the claims are dropped. Errors: build's (nothing is stored).
  Result<Obtained> load_or_build(const CacheKey& key, const AcceptFn& accept,
                                 const std::function<Result<Built>()>& build);

  // Whether a put reaches at least the local tier.
  bool writable() const;
  Tier* local();
  Tier* remote();
  // Every tier, in search order.
  std::vector<Tier*> tiers();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cccl_cache
