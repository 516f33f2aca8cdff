// The tier stack: the local LMDB store, then read-only image tiers, then an optional
// remote tier, searched in that order. A hit in an image or the remote is written back
// to the local store (backfill) once the caller accepts it; a put goes to the local
// store and is published to the remote (write-through, first writer wins). A failing
// image or remote never fails a request: it counts an error, logs once and is a miss.
// With trusted keys, an image's or the remote's entry must carry a valid signature by
// one of them (SignatureGate, checked before the caller's `accept` parses it); with a
// signing key, what the stack publishes to the remote is signed.
#pragma once

#include <cstddef>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cccl_cache/cache/build_claim.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "cccl_cache/cache/tier.hpp"

namespace cccl_cache {

class TierStack {
 public:
  // Opens the stack `config` describes: Store::open(config) as the local tier, each of
  // config.images read-only (one that cannot be opened is skipped with a warning), and
  // config.remote.url as the remote tier (connected lazily). Misses are claimed
  // (set_claim) by the host claim (open_host_claim(config)) then, unless
  // remote.read_only, the cluster lease, within config.build_wait_ms.
  // Errors: those of Store::open.
  static Result<std::shared_ptr<TierStack>> open(const Config& config);
  // The same around an open local store (its config() names images and remote).
  static std::shared_ptr<TierStack> over(std::shared_ptr<Store> local);
  // Assembles a stack from parts (tests). `local` may be null (no local tier).
  TierStack(std::unique_ptr<Tier> local, std::vector<std::unique_ptr<Tier>> images,
            std::unique_ptr<Tier> remote);
  ~TierStack();
  TierStack(const TierStack&) = delete;
  TierStack& operator=(const TierStack&) = delete;

  // The claim load_or_build takes on a miss (null: none; a ClaimChain composes the host
  // claim and the cluster lease) and how long it may wait for another builder. Not
  // thread-safe with requests.
  void set_claim(std::shared_ptr<BuildClaim> claim, std::chrono::milliseconds wait);

  // Signed entries: with `gate` enabled, an entry from a shared tier (image or remote)
  // is used only with a valid signature by a trusted key; a rejected one is a miss of
  // that tier (counted and logged once by the gate) and is never backfilled. With
  // `signer`, put() signs what it writes to the local tier and publishes to the remote;
  // a backfill keeps the shared entry's own signature. open/over set both from the
  // config (trusted_keys, signing_key). Not thread-safe with requests.
  void set_signing(std::shared_ptr<SignatureGate> gate, std::shared_ptr<const SecretKey> signer);
  // The gate's counts (zero without one).
  SignatureGate::Counts signature_counts() const;

  // Counts events in the local store's persisted counters (Store::count; nothing for a
  // stack assembled from parts). The stack itself counts signature rejections and,
  // through the claims open/over set, host-claim and cluster-lease waits and waits that
  // ran past build_wait_ms; AlgorithmCache counts cc_fallback serves.
  void count(Counter counter, std::uint64_t n = 1);

  // Receives a verified payload and returns whether the caller can use it; a rejected
  // entry is a miss of that tier and is not backfilled.
  using AcceptFn = std::function<bool(std::span<const std::byte>)>;

  // Looks `key` up tier by tier until `accept` takes a payload. Returns the index of
  // the tier that served it (0 = local when there is one), nullopt on a miss. A local
  // hit is read in place (zero-copy, inside its read transaction). Errors: only the
  // local tier's (an image's or the remote's count and log once, then miss).
  Result<std::optional<std::size_t>> get(const CacheKey& key, const AcceptFn& accept);

  // The local tier's entry of `key`, read in place: an entry fetch_many fetched and has
  // not committed yet from memory (looked at first: a batch leaves memory only once
  // committed, so no entry is missed while its batch commits), else the local tier's
  // (zero-copy, inside its read transaction). The view is valid during `fn` only.
  // Returns whether `fn` was called (false without a local tier). Errors: the local
  // tier's.
  Result<bool> get_local(const CacheKey& key, const Tier::PayloadFn& fn);

  // Receives keys[i]'s verified payload in a batch; returns whether the caller can use it.
  using AcceptManyFn = std::function<bool(std::size_t i, std::span<const std::byte>)>;

  // Batched lookup for prewarm and start-up, in batches of kFetchBatch keys: one round
  // trip per shared tier and one local commit per batch, whatever the number of keys.
  // The keys the local tier holds (Tier::contains: present; verified when they are
  // read) are left there; the others are looked up in each shared tier in search
  // order, in one request per tier (the remote: one MGET), each hit through the
  // signature gate, then `accept`; the hits it takes are backfilled into the local
  // tier in one write transaction (all or none: a failed backfill is logged once and
  // the entries stay in their tiers). That write runs on a background thread, so that
  // the caller binds while the commit and its disk sync run; until it is committed,
  // get() and fetch_many serve those entries from memory as local (flush() waits for
  // it, as the destructor does). Returns, per key,
  // the index of the tier that holds it (0 = local when there is one), nullopt on a
  // miss in every tier. A failing shared tier counts, logs once and misses.
  std::vector<std::optional<std::size_t>> fetch_many(std::span<const CacheKey> keys,
                                                     const AcceptManyFn& accept);
  // Waits until fetch_many's background backfills are written to the local tier.
  void flush();
  // Keys per batch of fetch_many: a start-up's specs in one request, while one reply
  // (up to 16 compressed entries) stays within the remote's time bound.
  static constexpr std::size_t kFetchBatch = 16;

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
    bool waited = false;  // another builder held the claim: this one waited for it
  };
  // get(); on a miss takes the claim (build_claim.hpp's protocol: it may poll get()
  // while another holder builds), reads again, and builds only if the entry still has
  // not appeared; a build is put() (local and remote) before the claim is released. A
  // claim that fails or runs out is logged once and the build goes ahead without it.
  // Errors: build's (nothing is stored), the local tier's read error.
  Result<Obtained> load_or_build(const CacheKey& key, const AcceptFn& accept,
                                 const std::function<Result<Built>()>& build);

  // The config the stack was opened with (open/over); null for one assembled from parts.
  const Config* config() const;
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
