// The tier stack: local, images, remote; backfill on a shared hit, write-through on put.
#include "cccl_cache/cache/tiers.hpp"

#include <algorithm>
#include <atomic>
#include <optional>

#include "cccl_cache/cache/log.hpp"
#include "cccl_cache/cache/redis_tier.hpp"
#include "backfill.hpp"

namespace cccl_cache {

namespace {

// A claim that counts its waits in the local store (Counter host_claim_waits or
// cluster_lease_waits) and the waits that ran out (wait_bound_builds). It waited when
// another holder had the key: it gave no hold (timed out or saw the entry appear), or
// its hold says it was refused first. It ran out when it gave no hold and the entry had
// not appeared.
class CountedClaim final : public BuildClaim {
 public:
  CountedClaim(std::shared_ptr<BuildClaim> inner, std::shared_ptr<Store> store, Counter waits)
      : inner_(std::move(inner)), store_(std::move(store)), waits_(waits) {}
  Result<std::unique_ptr<Hold>> claim(const CacheKey& key, Clock::time_point deadline,
                                      const AppearedFn& appeared) override {
    bool seen = false;
    AppearedFn watched;
    if (appeared)
      watched = [&] { return seen = seen || appeared(); };
    auto hold = inner_->claim(key, deadline, watched);
    const bool no_hold = hold && !*hold;
    if (no_hold || (hold && (*hold)->waited)) store_->count(waits_);
    if (no_hold && !seen && !(appeared && appeared())) store_->count(Counter::wait_bound_builds);
    return hold;
  }
  std::string name() const override { return inner_->name(); }

 private:
  std::shared_ptr<BuildClaim> inner_;
  std::shared_ptr<Store> store_;
  Counter waits_;
};

}  // namespace

struct TierStack::Impl {
  std::unique_ptr<Tier> local;
  std::shared_ptr<Store> store;  // the local tier's store (over()): persisted counters
  std::vector<std::unique_ptr<Tier>> shared;  // images, then the remote
  Tier* remote = nullptr;
  std::optional<Config> config;  // set by over()
  std::shared_ptr<BuildClaim> claim;
  std::shared_ptr<SignatureGate> gate;      // null or disabled: no signatures required
  std::shared_ptr<const SecretKey> signer;  // null: publishes unsigned
  std::chrono::milliseconds build_wait{120'000};
  std::vector<std::unique_ptr<std::atomic<bool>>> warned;  // per shared tier, then local put
  std::atomic<bool> warned_claim{false}, warned_claim_wait{false};
  // Last: destroyed (its batches written) before the tiers and flags its writes use.
  detail::Backfiller backfiller;

  void warn_once(std::size_t i, const std::string& what) { warn_once(*warned[i], what); }
  static void warn_once(std::atomic<bool>& flag, const std::string& what) {
    if (!flag.exchange(true)) logger()->warn("{} (further such warnings suppressed)", what);
  }
  std::size_t index_of_shared(std::size_t i) const { return (local ? 1 : 0) + i; }

  // fetch_many() of at most kFetchBatch keys: one request per shared tier, one commit.
  void fetch_batch(std::span<const CacheKey> keys, std::span<std::optional<std::size_t>> served,
                   const AcceptManyFn& accept);

  // Whether shared tier `tier`'s entry may be used: the gate's check, before any parse.
  bool trusted(const Tier& tier, const CacheKey& key, const EntryMeta& meta,
               std::span<const std::byte> payload, std::string_view signature) {
    if (!gate || !gate->enabled()) return true;
    if (gate->accept(key, signed_fields(meta), payload,
                     signature.empty() ? std::nullopt : std::optional(signature), tier.name()))
      return true;
    if (store) store->count(Counter::signature_rejections);
    return false;
  }

  // A verified shared hit the caller accepted: copy it into the local tier with the
  // signature it came with (the local store can then serve as a signed image too).
  void backfill(const CacheKey& key, const EntryMeta& meta, std::span<const std::byte> payload,
                std::string_view signature) {
    if (!local || local->read_only()) return;
    if (auto r = local->put_signed(key, meta, payload, signature); !r)
      warn_once(shared.size(), "tier stack: backfill of the local tier failed: " + r.error().describe());
  }
};

TierStack::TierStack(std::unique_ptr<Tier> local, std::vector<std::unique_ptr<Tier>> images,
                     std::unique_ptr<Tier> remote)
    : impl_(std::make_unique<Impl>()) {
  impl_->local = std::move(local);
  impl_->shared = std::move(images);
  if (remote) {
    impl_->remote = remote.get();
    impl_->shared.push_back(std::move(remote));
  }
  for (std::size_t i = 0; i <= impl_->shared.size(); ++i)
    impl_->warned.push_back(std::make_unique<std::atomic<bool>>(false));
}

TierStack::~TierStack() = default;

std::shared_ptr<TierStack> TierStack::over(std::shared_ptr<Store> local) {
  const Config config = local->config();
  std::vector<std::unique_ptr<Tier>> images;
  std::unique_ptr<RedisTier> remote;
  if (!config.disabled) {
    for (const auto& dir : config.images) {
      auto image = open_image_tier(config, dir);
      if (image)
        images.push_back(std::move(*image));
      else
        logger()->warn("tier stack: image {} is not used: {}", dir.string(), image.error().describe());
    }
    if (!config.remote.url.empty()) {
      auto r = RedisTier::open(config.remote);
      if (r)
        remote = std::move(*r);
      else
        logger()->warn("tier stack: no remote tier: {}", r.error().describe());
    }
  }
  // Signed entries: a trust set that cannot be read must not let unverified entries in.
  auto trust = TrustSet::from_config(config);
  if (!trust && (!images.empty() || remote)) {
    logger()->warn("tier stack: trusted_keys unusable, shared tiers are not used: {}",
                   trust.error().describe());
    images.clear();
    remote.reset();
  }
  auto signer = load_signing_key(config);
  if (!signer)
    logger()->warn("tier stack: signing_key unusable, publishing unsigned: {}",
                   signer.error().describe());
  // The host claim first (one process per host asks further), then the cluster lease.
  std::vector<std::shared_ptr<BuildClaim>> claims;
  if (!local->read_only()) {
    if (auto host = open_host_claim(config); host && *host)
      claims.push_back(
          std::make_shared<CountedClaim>(*host, local, Counter::host_claim_waits));
    else if (!host)
      logger()->warn("tier stack: no host-wide single-flight, processes may build the same "
                     "key at once: {}",
                     host.error().describe());
  }
  if (remote && !remote->read_only())
    claims.push_back(std::make_shared<CountedClaim>(
        remote->lease(std::chrono::milliseconds(config.remote.lease_ms)), local,
        Counter::cluster_lease_waits));
  auto stack = std::make_shared<TierStack>(make_store_tier(local, "local:" + config.dir.string()),
                                           std::move(images), std::move(remote));
  stack->impl_->config = config;
  stack->impl_->store = local;
  stack->set_signing(trust ? std::make_shared<SignatureGate>(std::move(*trust)) : nullptr,
                     signer ? *signer : nullptr);
  auto chain = std::make_shared<ClaimChain>(std::move(claims));
  if (!chain->empty())
    stack->set_claim(std::move(chain), std::chrono::milliseconds(config.build_wait_ms));
  return stack;
}

Result<std::shared_ptr<TierStack>> TierStack::open(const Config& config) {
  CCCL_CACHE_TRY(auto store, Store::open(config));
  return over(std::move(store));
}

void TierStack::set_claim(std::shared_ptr<BuildClaim> claim, std::chrono::milliseconds wait) {
  impl_->claim = std::move(claim);
  impl_->build_wait = wait;
}

Result<std::optional<std::size_t>> TierStack::get(const CacheKey& key, const AcceptFn& accept) {
  bool taken = false;
  CCCL_CACHE_TRY(bool local, get_local(key, [&](std::span<const std::byte> p) { taken = accept(p); }));
  if (local && taken) return std::optional<std::size_t>(0);
  for (std::size_t i = 0; i < impl_->shared.size(); ++i) {
    Tier& tier = *impl_->shared[i];
    auto hit = tier.get_signed_with(key, [&](const EntryMeta& meta, std::span<const std::byte> p,
                                             std::string_view signature) {
      taken = impl_->trusted(tier, key, meta, p, signature) && accept(p);
      if (taken) impl_->backfill(key, meta, p, signature);
    });
    if (!hit)
      impl_->warn_once(i, "tier " + tier.name() + ": read failed, skipped: " + hit.error().describe());
    else if (*hit && taken)
      return std::optional<std::size_t>(impl_->index_of_shared(i));
  }
  return std::optional<std::size_t>();
}

Result<bool> TierStack::get_local(const CacheKey& key, const Tier::PayloadFn& fn) {
  if (!impl_->local) return false;
  if (impl_->backfiller.with(key, fn)) return true;
  return impl_->local->get_payload_with(key, fn);
}

std::vector<std::optional<std::size_t>> TierStack::fetch_many(std::span<const CacheKey> keys,
                                                              const AcceptManyFn& accept) {
  std::vector<std::optional<std::size_t>> served(keys.size());
  for (std::size_t at = 0; at < keys.size(); at += kFetchBatch) {
    const std::size_t n = std::min(kFetchBatch, keys.size() - at);
    impl_->fetch_batch(keys.subspan(at, n), std::span(served).subspan(at, n),
                       [&](std::size_t i, std::span<const std::byte> p) { return accept(at + i, p); });
  }
  return served;
}

void TierStack::Impl::fetch_batch(std::span<const CacheKey> keys,
                                  std::span<std::optional<std::size_t>> served,
                                  const AcceptManyFn& accept) {
  std::vector<std::size_t> missing;  // indices into keys
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (local)
      if (auto held = local->contains(keys[i]); (held && *held) || backfiller.holds(keys[i])) {
        served[i] = 0;
        continue;
      }
    missing.push_back(i);
  }
  // The accepted shared hits (handed over by their tier, or copies), written
  // to the local tier together, in the background, once every tier has been asked.
  detail::Backfiller::Batch backfills;
  const bool backfill = local && !local->read_only();
  for (std::size_t t = 0; t < shared.size() && !missing.empty(); ++t) {
    Tier& tier = *shared[t];
    std::vector<CacheKey> asked;
    asked.reserve(missing.size());
    for (std::size_t i : missing) asked.push_back(keys[i]);
    tier.get_many_owned(asked, [&](std::size_t k, const EntryMeta& meta, SharedBytes p,
                                   std::string_view signature) {
      const std::size_t i = missing[k];
      if (served[i] || !trusted(tier, keys[i], meta, p.bytes, signature) || !accept(i, p.bytes))
        return;
      served[i] = index_of_shared(t);
      if (backfill) backfills.push_back({keys[i], meta, std::move(p), std::string(signature)});
    });
    std::erase_if(missing, [&](std::size_t i) { return served[i].has_value(); });
  }
  if (!backfills.empty())
    backfiller.submit(std::move(backfills), [this](std::span<const PutItem> items) {
      if (auto r = local->put_many(items); !r)
        warn_once(shared.size(), "tier stack: backfill of the local tier failed: " + r.error().describe());
    });
}

void TierStack::flush() { impl_->backfiller.flush(); }

Result<void> TierStack::put(const CacheKey& key, const EntryMeta& meta,
                            std::span<const std::byte> payload) {
  Result<void> out;
  // Signed once, kept locally (the store can serve as a signed image) and published.
  const std::string signature =
      impl_->signer ? impl_->signer->sign(key, signed_fields(meta), payload) : std::string();
  if (impl_->local && !impl_->local->read_only())
    if (auto r = impl_->local->put_signed(key, meta, payload, signature); !r)
      out = tl::unexpected(r.error());
  if (impl_->remote && !impl_->remote->read_only())
    if (auto r = impl_->remote->put_signed(key, meta, payload, signature);
        !r && r.error().code != ErrorCode::unsupported)
      impl_->warn_once(impl_->shared.size() - 1, "tier " + impl_->remote->name() +
                                                     ": publish failed: " + r.error().describe());
  return out;
}

Result<TierStack::Obtained> TierStack::load_or_build(const CacheKey& key, const AcceptFn& accept,
                                                     const std::function<Result<Built>()>& build) {
  CCCL_CACHE_TRY(auto hit, get(key, accept));
  if (hit) return Obtained{false, hit};
  Obtained out;
  std::unique_ptr<BuildClaim::Hold> hold;  // released after the put
  if (impl_->claim) {
    auto appeared = [&] {
      auto r = get(key, accept);
      if (r && *r) out.tier = *r;
      return out.tier.has_value();
    };
    auto claimed =
        impl_->claim->claim(key, BuildClaim::Clock::now() + impl_->build_wait, appeared);
    out.waited = claimed && (!*claimed || (*claimed)->waited);
    if (!claimed)
      Impl::warn_once(impl_->warned_claim, impl_->claim->name() + " build claim of " +
                                               key.to_string() + " failed, building without it: " +
                                               claimed.error().describe());
    else
      hold = std::move(*claimed);
    // The claim's previous holder (or another host) may have published it meanwhile.
    if (out.tier || appeared()) return out;
    if (claimed && !hold)
      Impl::warn_once(impl_->warned_claim_wait,
                      "waited " + std::to_string(impl_->build_wait.count()) +
                          " ms for another process's build of " + key.to_string() +
                          "; building it here too (build_wait_ms)");
  }
  CCCL_CACHE_TRY(Built built, build());
  if (auto r = put(key, built.meta, built.payload); !r)
    impl_->warn_once(impl_->shared.size(), "tier stack: local write failed (the build is kept in "
                                           "memory only): " + r.error().describe());
  out.built = true;
  return out;
}

void TierStack::set_signing(std::shared_ptr<SignatureGate> gate,
                            std::shared_ptr<const SecretKey> signer) {
  impl_->gate = std::move(gate);
  impl_->signer = std::move(signer);
}

void TierStack::count(Counter counter, std::uint64_t n) {
  if (impl_->store) impl_->store->count(counter, n);
}

SignatureGate::Counts TierStack::signature_counts() const {
  return impl_->gate ? impl_->gate->counts() : SignatureGate::Counts{};
}

const Config* TierStack::config() const { return impl_->config ? &*impl_->config : nullptr; }
bool TierStack::writable() const { return impl_->local && !impl_->local->read_only(); }
Tier* TierStack::local() { return impl_->local.get(); }
Tier* TierStack::remote() { return impl_->remote; }

std::vector<Tier*> TierStack::tiers() {
  std::vector<Tier*> out;
  if (impl_->local) out.push_back(impl_->local.get());
  for (auto& t : impl_->shared) out.push_back(t.get());
  return out;
}

}  // namespace cccl_cache
