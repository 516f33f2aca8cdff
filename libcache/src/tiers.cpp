// The tier stack: local, images, remote; backfill on a shared hit, write-through on put.
#include "cccl_cache/cache/tiers.hpp"

#include <atomic>

#include "cccl_cache/cache/log.hpp"
#include "cccl_cache/cache/redis_tier.hpp"

namespace cccl_cache {

struct TierStack::Impl {
  std::unique_ptr<Tier> local;
  std::vector<std::unique_ptr<Tier>> shared;  // images, then the remote
  Tier* remote = nullptr;
  std::vector<std::shared_ptr<BuildClaimer>> claimers;
  std::vector<std::unique_ptr<std::atomic<bool>>> warned;  // per shared tier, then local put

  void warn_once(std::size_t i, const std::string& what) {
    if (!warned[i]->exchange(true))
      logger()->warn("{} (further such warnings suppressed)", what);
  }
  std::size_t index_of_shared(std::size_t i) const { return (local ? 1 : 0) + i; }

  // A verified shared hit the caller accepted: copy it into the local tier.
  void backfill(const CacheKey& key, const EntryMeta& meta, std::span<const std::byte> payload) {
    if (!local || local->read_only()) return;
    if (auto r = local->put(key, meta, payload); !r)
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
  std::shared_ptr<BuildClaimer> lease;
  if (remote && !remote->read_only())
    lease = remote->lease(std::chrono::milliseconds(config.remote.lease_ms),
                          std::chrono::milliseconds(config.remote.lease_wait_ms));
  auto stack = std::make_shared<TierStack>(make_store_tier(local, "local:" + config.dir.string()),
                                           std::move(images), std::move(remote));
  // Claimers in order: a host-wide claim belongs before the cluster lease.
  if (lease) stack->add_claimer(std::move(lease));
  return stack;
}

Result<std::shared_ptr<TierStack>> TierStack::open(const Config& config) {
  CCCL_CACHE_TRY(auto store, Store::open(config));
  return over(std::move(store));
}

void TierStack::add_claimer(std::shared_ptr<BuildClaimer> claimer) {
  impl_->claimers.push_back(std::move(claimer));
}

Result<std::optional<std::size_t>> TierStack::get(const CacheKey& key, const AcceptFn& accept) {
  bool taken = false;
  if (impl_->local) {
    CCCL_CACHE_TRY(bool hit, impl_->local->get_payload_with(
                                 key, [&](std::span<const std::byte> p) { taken = accept(p); }));
    if (hit && taken) return std::optional<std::size_t>(0);
  }
  for (std::size_t i = 0; i < impl_->shared.size(); ++i) {
    Tier& tier = *impl_->shared[i];
    auto hit = tier.get_with(key, [&](const EntryMeta& meta, std::span<const std::byte> p) {
      taken = accept(p);
      if (taken) impl_->backfill(key, meta, p);
    });
    if (!hit)
      impl_->warn_once(i, "tier " + tier.name() + ": read failed, skipped: " + hit.error().describe());
    else if (*hit && taken)
      return std::optional<std::size_t>(impl_->index_of_shared(i));
  }
  return std::optional<std::size_t>();
}

std::size_t TierStack::fetch_many(std::span<const CacheKey> keys, const AcceptFn& accept) {
  std::vector<CacheKey> missing;
  for (const auto& key : keys) {
    bool taken = false;
    if (impl_->local) {
      auto hit = impl_->local->get_payload_with(
          key, [&](std::span<const std::byte> p) { taken = accept(p); });
      if (hit && *hit && taken) continue;
    }
    missing.push_back(key);
  }
  const std::size_t local_hits = keys.size() - missing.size();
  std::size_t found = 0;
  for (std::size_t i = 0; i < impl_->shared.size() && !missing.empty(); ++i) {
    std::vector<bool> got(missing.size(), false);
    auto take = [&](std::size_t k, const EntryMeta& meta, std::span<const std::byte> p) {
      if (!accept(p)) return;
      impl_->backfill(missing[k], meta, p);
      got[k] = true;
    };
    if (impl_->shared[i].get() == impl_->remote) {
      static_cast<RedisTier*>(impl_->remote)->get_many(missing, take);
    } else {
      for (std::size_t k = 0; k < missing.size(); ++k)
        (void)impl_->shared[i]->get_with(
            missing[k], [&](const EntryMeta& m, std::span<const std::byte> p) { take(k, m, p); });
    }
    std::vector<CacheKey> still;
    for (std::size_t k = 0; k < missing.size(); ++k)
      if (got[k])
        ++found;
      else
        still.push_back(missing[k]);
    missing = std::move(still);
  }
  return local_hits + found;
}

Result<void> TierStack::put(const CacheKey& key, const EntryMeta& meta,
                            std::span<const std::byte> payload) {
  Result<void> out;
  if (impl_->local && !impl_->local->read_only())
    if (auto r = impl_->local->put(key, meta, payload); !r) out = tl::unexpected(r.error());
  if (impl_->remote && !impl_->remote->read_only())
    if (auto r = impl_->remote->put(key, meta, payload); !r && r.error().code != ErrorCode::unsupported)
      impl_->warn_once(impl_->shared.size() - 1, "tier " + impl_->remote->name() +
                                                     ": publish failed: " + r.error().describe());
  return out;
}

Result<TierStack::Obtained> TierStack::load_or_build(const CacheKey& key, const AcceptFn& accept,
                                                     const std::function<Result<Built>()>& build) {
  CCCL_CACHE_TRY(auto hit, get(key, accept));
  if (hit) return Obtained{false, hit};
  std::vector<std::unique_ptr<BuildClaim>> held;  // released after the put, in reverse
  for (const auto& claimer : impl_->claimers) {
    std::optional<std::size_t> served;
    auto appeared = [&] {
      auto r = get(key, accept);
      if (r && *r) served = *r;
      return served.has_value();
    };
    Claimed c = claimer->claim(key, appeared);
    if (c.outcome == ClaimOutcome::appeared) return Obtained{false, served};
    if (c.outcome == ClaimOutcome::claimed) {
      held.push_back(std::move(c.claim));
      // A builder may have finished between the miss above and this claim.
      if (appeared()) return Obtained{false, served};
    }
  }
  CCCL_CACHE_TRY(Built built, build());
  if (auto r = put(key, built.meta, built.payload); !r)
    impl_->warn_once(impl_->shared.size(), "tier stack: local write failed (the build is kept in "
                                           "memory only): " + r.error().describe());
  while (!held.empty()) held.pop_back();
  return Obtained{true, std::nullopt};
}

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
