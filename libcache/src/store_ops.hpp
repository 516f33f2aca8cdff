// Transaction-level building blocks of the store, shared by store.cpp and
// store_evict.cpp. Every function runs inside a transaction the caller owns.
//
// Sub-databases of one environment:
//   entries:  CacheKey::encode() -> envelope (envelope.hpp)
//   usage:    CacheKey::encode() -> UsageRecord (24 bytes, native): last use (us), hits, payload
//   size;
//             small and separate so that touching an entry never rewrites its payload
//   counters: u32 big-endian Counter number -> u64 little-endian; number 1000 holds the
//             live payload bytes, kept exact by every put and removal
//   signatures: CacheKey::encode() -> the entry's signature text (signing.hpp), only for
//             signed entries; written and removed in the same transaction as the entry,
//             so that no signature outlives its entry and no entry keeps another's
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/store.hpp"
#include "shared_env.hpp"

namespace cccl_cache::detail {

inline constexpr std::uint32_t kLiveBytesCounter = 1000;

struct UsageRecord {
  std::int64_t last_used_us = 0;  // microseconds since the epoch: orders LRU within a second
  std::uint64_t hits = 0;
  std::uint64_t payload_size = 0;
};
static_assert(sizeof(UsageRecord) == 24);

std::optional<UsageRecord> decode_usage(const MDB_val& v);

// The metadata an envelope carries (usage fields left at zero).
EntryMeta meta_of(const EnvelopeView& view);

// Reads counter `id` (0 when absent).
Result<std::uint64_t> read_counter(MDB_txn* txn, MDB_dbi counters, std::uint32_t id);
// Adds `delta` (may be negative; clamps at 0) to counter `id`.
Result<void> add_counter(lmdb::WriteTxn& txn, MDB_dbi counters, std::uint32_t id,
                         std::int64_t delta);

// The signature stored for `key` (a view into the map, valid in `txn`); empty when
// unsigned or the store has no signatures database. Errors: lmdb.
Result<std::string_view> read_signature(MDB_txn* txn, const SharedEnv& env,
                                        std::span<const std::byte> key);
// Stores `signature` for `key`, or removes any stored one when it is empty.
Result<void> write_signature(lmdb::WriteTxn& txn, const SharedEnv& env,
                             std::span<const std::byte> key, std::string_view signature);

// Removes `key` from entries, usage and signatures and lowers the live-bytes gauge. Returns the
// payload bytes freed, or nullopt when the key was absent.
Result<std::optional<std::uint64_t>> remove_entry(lmdb::WriteTxn& txn, const SharedEnv& env,
                                                  const CacheKey& key);

// Writes a batch of hits/misses/touches taken from SharedEnv::pending.
Result<void> write_batch(lmdb::WriteTxn& txn, const SharedEnv& env, const PendingBatch& batch);

// Moves the pending batch out of `env` / merges a batch back after a failed write.
PendingBatch take_pending(SharedEnv& env);
void restore_pending(SharedEnv& env, PendingBatch&& batch);

// One entry as seen by listings and eviction: metadata without payload.
struct EntryInfo {
  CacheKey key;
  EntryMeta meta;
  std::int64_t last_used_us = 0;
  bool malformed = false;
};

// Every entry's key and metadata (checksums not verified), in key order.
Result<std::vector<EntryInfo>> list_entries(MDB_txn* txn, const SharedEnv& env);

// Removes least recently used entries (never `keep`) until live bytes <= budget.
// Adds the removed entries to `removed` (when given) and to the eviction counters.
Result<std::uint64_t> trim_lru(lmdb::WriteTxn& txn, const SharedEnv& env, std::uint64_t budget,
                               const std::optional<CacheKey>& keep, bool dry_run,
                               std::vector<EvictReport::Item>* removed);

// The map-ceiling policy around a put whose first attempt returned `r`. After a
// success at the ceiling: keeps 1/8 of the map free by LRU eviction (once it is
// entirely full even the deletions that make room need pages they cannot get). After
// storage_full at the ceiling with live bytes within the budget (pages lost to page
// rounding, or held by a dead reader's snapshot): makes room by LRU and calls `retry`,
// up to 3 times, instead of wedging; not for an entry over a quarter of the map (it
// could never fit), and not while a live reader pins the map (the error then names it).
Result<void> at_map_ceiling(SharedEnv& env, std::uint64_t entry_size, Result<void> r,
                            const std::function<Result<void>()>& retry);

// Whether under 1/8 of the map is free for new pages in the latest snapshot (never
// used pages plus the free list; some of those may still be held by old readers).
Result<bool> low_on_map(SharedEnv& env);

// At the map's ceiling: evicts least recently used entries down to 3/4 of the live
// bytes in its own write transaction, counts them as evictions and logs a warning.
// Returns the payload bytes freed (0 when there was nothing to evict).
Result<std::uint64_t> make_room(SharedEnv& env);

}  // namespace cccl_cache::detail
