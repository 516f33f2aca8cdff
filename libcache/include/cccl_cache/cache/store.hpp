// The content-addressed kernel store: an LMDB environment mapping CacheKey to an
// envelope (see envelope.hpp) holding one serialized build result.
//
// Thread safety: a Store is safe to use from many threads at once. Processes:
// any number of processes may open the same directory; LMDB serializes writers.
// Within one process, Store::open() of the same directory (same device and inode,
// however spelled) returns handles that share one LMDB environment, opened with the
// first handle's map and reader settings; after fork() the child reopens it
// transparently on its next call (keep using the inherited Store).
//
// Hits, misses and last-use stamps are batched in memory per environment and
// written at most every config.touch_interval_s seconds, on put(), evict(), flush()
// and when a handle is destroyed; stats() and for_each() include the unwritten batch.
// Never place the directory on a network filesystem (see config/cccl-cache.toml).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/key.hpp"
#include "cccl_cache/cache/stats.hpp"

namespace cccl_cache {

// What is stored beside each payload.
struct EntryMeta {
  std::string algorithm;  // "merge_sort", ...
  std::string summary;    // readable spec, e.g. "keys=float32 values=none cmp=less offset=int64"
  std::string toolchain;  // toolchain fingerprint of the producer
  std::uint32_t payload_format = 0;  // the producer's payload format version
  std::int64_t created_unix = 0;     // seconds since epoch, set by put()
  std::int64_t last_used_unix = 0;   // coarse: updated in batches
  std::uint64_t hits = 0;            // coarse: updated in batches
  std::uint64_t payload_size = 0;
};

// One entry of Store::put_many(): views that must stay valid during the call.
struct PutItem {
  CacheKey key;
  const EntryMeta* meta = nullptr;
  std::span<const std::byte> payload;
  std::string_view signature;  // empty: unsigned
};

struct Entry {
  CacheKey key;
  EntryMeta meta;
  std::vector<std::byte> payload;  // checksum already verified
  std::string signature;           // "name:base64" (signing.hpp), empty when unsigned
};

// Filters for evict(); every set field must match for an entry to be removed
// (max_live_bytes instead trims least recently used entries down to that size).
struct EvictCriteria {
  std::optional<std::int64_t> older_than_s =
      std::nullopt;  // last used more than this many seconds ago
  std::optional<std::uint64_t> max_live_bytes = std::nullopt;  // LRU trim to this budget
  std::optional<std::uint32_t> cc = std::nullopt;
  std::optional<std::string> algorithm = std::nullopt;
  // Remove entries whose toolchain differs from the fingerprint named for their
  // algorithm (algorithm name -> fingerprint; an entry of an algorithm not named is a
  // mismatch) or whose payload format differs from `payload_format`.
  std::optional<std::map<std::string, std::string, std::less<>>> toolchain_mismatch_with =
      std::nullopt;
  std::optional<std::uint32_t> payload_format = std::nullopt;
  bool dry_run = false;
};

struct EvictReport {
  struct Item {
    CacheKey key;
    EntryMeta meta;
    std::string reason;
  };
  std::vector<Item> removed;  // or would be removed, on dry_run
  std::uint64_t bytes_freed = 0;
};

class Store {
 public:
  // Opens (creating if needed, unless config.read_only) the store at config.dir.
  // Errors: invalid_argument (config.validate() fails: max_map_size under twice
  // max_size); permission (the directory or data.mdb/lock.mdb is a symlink, writable by
  // every user, or not trusted for the mode: see config/cccl-cache.toml, `dir` and
  // `shared`; the message says what to run), also permission for a read-only open
  // whose lock file cannot be used (not writable, or a read-only filesystem) unless
  // config.immutable; unsupported (a network filesystem, unless immutable); io, lmdb;
  // corrupt (a read-only open of a damaged data.mdb). The first open in a process
  // checks data.mdb's structure before LMDB maps it (integrity.hpp); a writable open
  // that finds damage moves data.mdb and lock.mdb into <dir>/quarantine/<UTC time>-<pid>/,
  // logs a warning, counts it (StoreStats::quarantined) and starts an empty store.
  // A disabled config
  // yields a store whose gets miss and whose puts do nothing, and creates no file. A
  // directory this process cannot write opens read-only; one that is absent and
  // cannot be created (or absent with read_only) yields an empty read-only store.
  static Result<std::shared_ptr<Store>> open(const Config& config);

  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Looks `key` up. Miss: nullopt. A corrupt or malformed entry is dropped, counted
  // (Counter::corrupt), logged once and reported as a miss; an entry written in another
  // envelope format version is a miss left in place. Counts a hit or miss (batched).
  // The returned Entry owns its bytes. Errors: lmdb (never for a miss).
  Result<std::optional<Entry>> get(const CacheKey& key);

  // Receives a verified entry in place: its metadata and a view of its payload.
  using EntryFn = std::function<void(const EntryMeta&, std::span<const std::byte>)>;

  // Zero-copy get(): looks `key` up exactly as get() does (same checksum verification,
  // corrupt/format handling and batched hit/miss count) and, on a hit, calls `fn` once
  // with the payload viewed in the memory map, then returns true. Miss: false, `fn` not
  // called. The payload view is valid only until `fn` returns: copy what must outlive
  // it. `fn` runs inside a read transaction of this thread; it must not call this store
  // or any other handle on the same directory. An exception thrown by `fn` ends the
  // transaction and propagates (the hit is then not counted). Errors: lmdb.
  Result<bool> get_with(const CacheKey& key, const EntryFn& fn);

  // get_with() for callers that need the payload only (a store hit of AlgorithmCache):
  // the same lookup, verification, corrupt/format handling and hit/miss count, but
  // no EntryMeta is made (no usage-record lookup, no copies of the envelope's strings).
  using PayloadFn = std::function<void(std::span<const std::byte>)>;
  Result<bool> get_payload_with(const CacheKey& key, const PayloadFn& fn);

  // get_with() that also hands over the entry's stored signature ("name:base64",
  // signing.hpp; empty when unsigned), read in the same transaction. The store keeps
  // signatures but never checks them: a reader checks them (SignatureGate) when the
  // store is shared with it, e.g. as an image tier.
  using SignedEntryFn = std::function<void(const EntryMeta&, std::span<const std::byte>,
                                           std::string_view signature)>;
  Result<bool> get_signed_with(const CacheKey& key, const SignedEntryFn& fn);

  // Stores `payload` under `key`, replacing any entry, in one short write transaction
  // (committed and synced when this returns). Grows the map when full, then evicts
  // least recently used entries past the budget (the entry just written is kept even
  // if it alone exceeds it). Errors: read_only, storage_full (map at max_map_size or
  // disk full; nothing stored is harmed), invalid_argument (a metadata field over
  // 65,535 bytes, a signature over 1,024), lmdb. meta.created_unix/last_used_unix/hits/
  // payload_size are ignored. `signature` is kept beside the entry in the same
  // transaction (empty: unsigned, and any signature of the entry it replaces is removed).
  Result<void> put(const CacheKey& key, const EntryMeta& meta, std::span<const std::byte> payload,
                   std::string_view signature = {});

  // put() of many entries in ONE write transaction (one commit and sync for all: a
  // batch of backfills at start-up): every entry is stored, or none is. Eviction runs
  // once, after all of them (the first entry is kept as put() keeps its one). An empty
  // batch writes nothing. Errors as put() (any item's invalid_argument fails the batch
  // before anything is written).
  Result<void> put_many(std::span<const PutItem> items);

  // Whether an entry is stored under `key`, without reading or verifying it and
  // without counting a hit or miss (a batch lookup asks it to find what is missing;
  // the entry is verified when it is read). Errors: lmdb.
  Result<bool> contains(const CacheKey& key);

  // Removes `key` and its signature (an orphan signature too). Returns whether an entry
  // was there. Errors: read_only, lmdb.
  Result<bool> remove(const CacheKey& key);

  // Calls `fn` for every entry's key and metadata (no payload), in key order, inside one
  // read transaction; stops early when `fn` returns false. Checksums are not verified
  // here (use peek()); an entry whose envelope is malformed is listed with empty
  // algorithm, summary and toolchain. Do not call the store's write functions from `fn`.
  Result<void> for_each(const std::function<bool(const CacheKey&, const EntryMeta&)>& fn);

  // Keys whose signature record has no entry (none unless the file was damaged or
  // edited): `verify` reports them, remove() deletes them.
  Result<std::vector<CacheKey>> orphan_signatures();

  // Counts `n` events of a persisted counter (Counter::host_claim_waits ..
  // signature_rejections; others are ignored; batched like hits). A read-only store
  // counts in memory only (stats() shows them).
  void count(Counter counter, std::uint64_t n = 1);

  // Reads one entry with its payload verified and its signature, without counting a
  // hit (for tools).
  Result<std::optional<Entry>> peek(const CacheKey& key);

  // Persisted counters plus this process's unwritten batch, live entry count and
  // bytes, budget and map size. A read-only store counts corrupt entries in memory.
  Result<StoreStats> stats();

  // Removes the entries matching `criteria` (see EvictCriteria), then trims to
  // max_live_bytes if set; with dry_run reports what would go and changes nothing.
  // Errors: invalid_argument when no criterion is set, read_only, lmdb.
  Result<EvictReport> evict(const EvictCriteria& criteria);

  // Writes batched last-use stamps and hit counts now (also done on destruction).
  // A read-only store has nothing to write and returns success.
  Result<void> flush();

  // Removes every entry and resets counters. Errors: read_only, lmdb.
  Result<void> clear();

  // The configuration this handle was opened with.
  const Config& config() const;
  // Whether writes are refused (config.read_only, unwritable or absent directory).
  bool read_only() const;

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cccl_cache
