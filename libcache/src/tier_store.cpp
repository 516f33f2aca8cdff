// The LMDB store and an in-memory map as tiers, and the counters every tier keeps.
#include <chrono>
#include <map>
#include <mutex>

#include "cccl_cache/cache/tier.hpp"

namespace cccl_cache {

void TierCounters::record_get(std::uint64_t ns, bool hit) {
  (hit ? hits : misses).fetch_add(1, std::memory_order_relaxed);
  get_ns.fetch_add(ns, std::memory_order_relaxed);
  std::uint64_t prev = get_ns_max.load(std::memory_order_relaxed);
  while (ns > prev && !get_ns_max.compare_exchange_weak(prev, ns, std::memory_order_relaxed)) {
  }
}

TierStats TierCounters::snapshot() const {
  TierStats s;
  s.hits = hits.load();
  s.misses = misses.load();
  s.errors = errors.load();
  s.rejected = rejected.load();
  s.puts = puts.load();
  s.requests = requests.load();
  s.get_ns_total = get_ns.load();
  s.get_ns_max = get_ns_max.load();
  return s;
}

std::size_t Tier::get_many(std::span<const CacheKey> keys, const ManyFn& fn) {
  std::size_t hits = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto hit = get_signed_with(keys[i], [&](const EntryMeta& m, std::span<const std::byte> p,
                                            std::string_view sig) { fn(i, m, p, sig); });
    if (hit && *hit) ++hits;
  }
  return hits;
}

std::size_t Tier::get_many_owned(std::span<const CacheKey> keys, const OwnedManyFn& fn) {
  return get_many(keys, [&](std::size_t i, const EntryMeta& m, std::span<const std::byte> p,
                            std::string_view sig) {
    auto copy = std::make_shared<const std::vector<std::byte>>(p.begin(), p.end());
    fn(i, m, SharedBytes{copy, *copy}, sig);
  });
}

Result<void> Tier::put_many(std::span<const PutItem> items) {
  for (const PutItem& item : items)
    if (auto r = put_signed(item.key, *item.meta, item.payload, item.signature); !r)
      return tl::unexpected(r.error());
  return {};
}

Result<bool> Tier::contains(const CacheKey& key) {
  return get_with(key, [](const EntryMeta&, std::span<const std::byte>) {});
}

namespace {

std::uint64_t since_ns(std::chrono::steady_clock::time_point t0) {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now() - t0)
                                        .count());
}

class StoreTier final : public Tier {
 public:
  StoreTier(std::shared_ptr<Store> store, std::string name)
      : store_(std::move(store)), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  bool read_only() const override { return store_->read_only(); }

  Result<bool> get_with(const CacheKey& key, const EntryFn& fn) override {
    auto t0 = std::chrono::steady_clock::now();
    return timed(store_->get_with(key, fn), t0);
  }
  Result<bool> get_payload_with(const CacheKey& key, const PayloadFn& fn) override {
    auto t0 = std::chrono::steady_clock::now();
    return timed(store_->get_payload_with(key, fn), t0);
  }
  Result<bool> get_signed_with(const CacheKey& key, const SignedEntryFn& fn) override {
    auto t0 = std::chrono::steady_clock::now();
    return timed(store_->get_signed_with(key, fn), t0);
  }
  Result<bool> put_signed(const CacheKey& key, const EntryMeta& meta,
                          std::span<const std::byte> payload, std::string_view signature) override {
    const PutItem item{key, &meta, payload, signature};
    if (auto r = put_many(std::span(&item, 1)); !r) return tl::unexpected(r.error());
    return true;
  }
  Result<void> put_many(std::span<const PutItem> items) override {
    counters_.requests.fetch_add(1, std::memory_order_relaxed);
    auto r = store_->put_many(items);
    if (!r) {
      counters_.errors.fetch_add(1, std::memory_order_relaxed);
      return r;
    }
    counters_.puts.fetch_add(items.size(), std::memory_order_relaxed);
    return r;
  }
  Result<bool> contains(const CacheKey& key) override { return store_->contains(key); }
  Result<bool> remove(const CacheKey& key) override { return store_->remove(key); }
  Result<void> for_each(const ListFn& fn) override { return store_->for_each(fn); }
  TierStats stats() const override { return counters_.snapshot(); }

 private:
  Result<bool> timed(Result<bool> r, std::chrono::steady_clock::time_point t0) {
    counters_.requests.fetch_add(1, std::memory_order_relaxed);
    if (!r)
      counters_.errors.fetch_add(1, std::memory_order_relaxed);
    else
      counters_.record_get(since_ns(t0), *r);
    return r;
  }
  std::shared_ptr<Store> store_;
  std::string name_;
  TierCounters counters_;
};

class MemoryTier final : public Tier {
 public:
  explicit MemoryTier(bool read_only) : read_only_(read_only) {}
  const std::string& name() const override { return name_; }
  bool read_only() const override { return read_only_; }

  Result<bool> get_signed_with(const CacheKey& key, const SignedEntryFn& fn) override {
    auto t0 = std::chrono::steady_clock::now();
    counters_.requests.fetch_add(1, std::memory_order_relaxed);
    std::unique_lock lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      lock.unlock();
      counters_.record_get(since_ns(t0), false);
      return false;
    }
    // Copied out so that `fn` runs without the lock (it may take seconds, e.g. a bind).
    Item item = it->second;
    lock.unlock();
    counters_.record_get(since_ns(t0), true);
    fn(item.meta, item.payload, item.signature);
    return true;
  }
  Result<bool> put_signed(const CacheKey& key, const EntryMeta& meta,
                          std::span<const std::byte> payload, std::string_view signature) override {
    if (read_only_) return fail(ErrorCode::read_only, "the memory tier is read-only");
    counters_.requests.fetch_add(1, std::memory_order_relaxed);
    Item item{meta, {payload.begin(), payload.end()}, std::string(signature)};
    item.meta.payload_size = payload.size();
    std::lock_guard lock(mutex_);
    entries_.insert_or_assign(key, std::move(item));
    counters_.puts.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  Result<bool> remove(const CacheKey& key) override {
    if (read_only_) return fail(ErrorCode::read_only, "the memory tier is read-only");
    std::lock_guard lock(mutex_);
    return entries_.erase(key) > 0;
  }
  Result<void> for_each(const ListFn& fn) override {
    std::vector<std::pair<CacheKey, EntryMeta>> listed;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [k, v] : entries_) listed.emplace_back(k, v.meta);
    }
    for (const auto& [k, m] : listed)
      if (!fn(k, m)) break;
    return {};
  }
  TierStats stats() const override { return counters_.snapshot(); }

 private:
  struct Item {
    EntryMeta meta;
    std::vector<std::byte> payload;
    std::string signature;
  };
  const bool read_only_;
  const std::string name_ = "memory";
  std::mutex mutex_;
  std::map<CacheKey, Item> entries_;
  TierCounters counters_;
};

}  // namespace

std::unique_ptr<Tier> make_store_tier(std::shared_ptr<Store> store, std::string name) {
  return std::make_unique<StoreTier>(std::move(store), std::move(name));
}

Result<std::unique_ptr<Tier>> open_image_tier(const Config& base, const std::filesystem::path& dir) {
  Config c = base;
  c.dir = dir;
  c.read_only = true;
  c.immutable = true;
  c.images.clear();
  c.remote = {};
  std::error_code ec;
  if (!std::filesystem::exists(dir / "data.mdb", ec))
    return fail(ErrorCode::not_found, "image " + dir.string() + " holds no data.mdb");
  CCCL_CACHE_TRY(auto store, Store::open(c));
  return make_store_tier(std::move(store), "image:" + dir.string());
}

std::unique_ptr<Tier> make_memory_tier(bool read_only) {
  return std::make_unique<MemoryTier>(read_only);
}

}  // namespace cccl_cache
