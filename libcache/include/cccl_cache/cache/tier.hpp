// One storage tier: a place entries live (the local LMDB store, a read-only image, an
// in-memory map, a remote Redis). TierStack (tiers.hpp) searches several in order.
//
// Contract shared by every tier: a miss is a value (false), never an error; a payload
// handed to a callback has had its envelope checksum verified; views are valid only
// until the callback returns, and the callback must not call the same tier.
// Implementations are thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "cccl_cache/cache/store.hpp"

namespace cccl_cache {

// Counters of one tier in this process (the local store's persisted counters are in
// Store::stats()). Latency: total and worst wall time of get calls.
struct TierStats {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t errors = 0;    // failed, timed-out or skipped (breaker open) operations: misses
  std::uint64_t rejected = 0;  // entries whose bytes failed verification
  std::uint64_t puts = 0;      // entries written (for a remote: published first)
  std::uint64_t requests = 0;  // lookups and writes made (a batch of many keys is one)
  std::uint64_t get_ns_total = 0;
  std::uint64_t get_ns_max = 0;
  bool available = true;  // false while a remote's circuit breaker is open
};

// Bytes kept alive by their owner: a payload handed over without a copy.
struct SharedBytes {
  std::shared_ptr<const void> owner;
  std::span<const std::byte> bytes;
};

class Tier {
 public:
  using EntryFn = Store::EntryFn;
  using PayloadFn = Store::PayloadFn;
  using ListFn = std::function<bool(const CacheKey&, const EntryMeta&)>;

  virtual ~Tier() = default;
  // "local:<dir>", "image:<dir>", "memory", "redis://host:port/db".
  virtual const std::string& name() const = 0;
  // Whether put/remove are refused (read_only error) or dropped.
  virtual bool read_only() const = 0;

  // Looks `key` up; on a hit calls `fn` once with its metadata and payload and returns
  // true. Errors: the tier's own (lmdb, io, ...); never for a miss. A tier implements
  // get_with or get_signed_with (each defaults to the other).
  virtual Result<bool> get_with(const CacheKey& key, const EntryFn& fn) {
    return get_signed_with(key, [&](const EntryMeta& m, std::span<const std::byte> p,
                                    std::string_view) { fn(m, p); });
  }
  // get_with() without metadata (cheaper for the local store).
  virtual Result<bool> get_payload_with(const CacheKey& key, const PayloadFn& fn) {
    return get_with(key, [&](const EntryMeta&, std::span<const std::byte> p) { fn(p); });
  }
  // Stores an entry. Returns false when the tier kept an existing entry instead (a
  // remote publishes only if absent: the first writer wins). Errors: read_only, ...
  // A tier implements put or put_signed (each defaults to the other).
  virtual Result<bool> put(const CacheKey& key, const EntryMeta& meta,
                           std::span<const std::byte> payload) {
    return put_signed(key, meta, payload, {});
  }

  // Signed entries (signing.hpp): a tier that keeps an entry's detached signature
  // ("name:base64") beside it. The signature view is empty for an unsigned entry and
  // valid only during the callback. A tier that keeps no signatures implements get_with
  // and put: it reports every entry unsigned and drops the signature of a put.
  using SignedEntryFn = Store::SignedEntryFn;
  virtual Result<bool> get_signed_with(const CacheKey& key, const SignedEntryFn& fn) {
    return get_with(key, [&](const EntryMeta& m, std::span<const std::byte> p) { fn(m, p, {}); });
  }
  virtual Result<bool> put_signed(const CacheKey& key, const EntryMeta& meta,
                                  std::span<const std::byte> payload, std::string_view signature) {
    (void)signature;
    return put(key, meta, payload);
  }
  // Batched lookup (prewarm, start-up): calls `fn(i, meta, payload, signature)` for each
  // hit of keys[i], with the views and checks of get_signed_with, and returns the number
  // of hits. Failures are counted and are misses. The default looks the keys up one by
  // one; the remote answers all of them in one round trip (MGET).
  using ManyFn = std::function<void(std::size_t, const EntryMeta&, std::span<const std::byte>,
                                    std::string_view signature)>;
  virtual std::size_t get_many(std::span<const CacheKey> keys, const ManyFn& fn);
  // get_many() handing each payload over instead of lending it: `fn` may keep
  // `payload.owner` (which keeps `payload.bytes` alive) past the call. The default
  // copies each payload get_many() lends; the remote hands its decompressed buffers over.
  using OwnedManyFn = std::function<void(std::size_t, const EntryMeta&, SharedBytes payload,
                                         std::string_view signature)>;
  virtual std::size_t get_many_owned(std::span<const CacheKey> keys, const OwnedManyFn& fn);
  // Stores every item (put_signed's rules). The local store writes them in one
  // transaction, all or none; the default puts them one by one and stops at the first
  // error. Errors: read_only, ...
  virtual Result<void> put_many(std::span<const PutItem> items);
  // Whether `key` is stored, without reading or verifying it (the default: get_with).
  virtual Result<bool> contains(const CacheKey& key);
  // Removes `key`; returns whether it was there. Errors: read_only, ...
  virtual Result<bool> remove(const CacheKey& key) = 0;
  // Every entry's key and metadata (no payload) until `fn` returns false.
  virtual Result<void> for_each(const ListFn& fn) = 0;
  virtual TierStats stats() const = 0;
};

// The LMDB store as a tier (the local tier, or an image opened read-only); it keeps
// signatures, so a store a signing writer filled serves as a signed image.
std::unique_ptr<Tier> make_store_tier(std::shared_ptr<Store> store, std::string name);
// Opens a prewarmed store at `dir` read-only (a copy of `base` with only dir,
// read_only and immutable changed) as an image tier.
Result<std::unique_ptr<Tier>> open_image_tier(const Config& base, const std::filesystem::path& dir);
// An in-memory tier (tests, benchmarks) that keeps signatures; `read_only` makes puts fail.
std::unique_ptr<Tier> make_memory_tier(bool read_only = false);

// Counters every tier keeps the same way.
struct TierCounters {
  std::atomic<std::uint64_t> hits{0}, misses{0}, errors{0}, rejected{0}, puts{0}, requests{0},
      get_ns{0}, get_ns_max{0};
  void record_get(std::uint64_t ns, bool hit);
  TierStats snapshot() const;
};

}  // namespace cccl_cache
