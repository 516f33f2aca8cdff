// The content-addressed kernel store: an LMDB environment mapping CacheKey to an
// envelope (see envelope.hpp) holding one serialized build result.
//
// Thread safety: a Store is safe to use from many threads at once. Processes:
// any number of processes may open the same directory; LMDB serializes writers.
// Within one process, Store::open() of the same directory returns handles that
// share one LMDB environment; after fork() the child reopens it transparently.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/key.hpp"
#include "cccl_cache/cache/stats.hpp"

namespace cccl_cache {

// What is stored beside each payload.
struct EntryMeta {
  std::string algorithm;       // "merge_sort", ...
  std::string summary;         // readable spec, e.g. "keys=float32 values=none cmp=less offset=int64"
  std::string toolchain;       // toolchain fingerprint of the producer
  std::uint32_t payload_format = 0;  // the producer's payload format version
  std::int64_t created_unix = 0;     // seconds since epoch, set by put()
  std::int64_t last_used_unix = 0;   // coarse: updated in batches
  std::uint64_t hits = 0;            // coarse: updated in batches
  std::uint64_t payload_size = 0;
};

struct Entry {
  CacheKey key;
  EntryMeta meta;
  std::vector<std::byte> payload;  // checksum already verified
};

// Filters for evict(); every set field must match for an entry to be removed
// (max_live_bytes instead trims least recently used entries down to that size).
struct EvictCriteria {
  std::optional<std::int64_t> older_than_s = std::nullopt;        // last used more than this many seconds ago
  std::optional<std::uint64_t> max_live_bytes = std::nullopt;      // LRU trim to this budget
  std::optional<std::uint32_t> cc = std::nullopt;
  std::optional<std::string> algorithm = std::nullopt;
  // Remove entries whose toolchain differs from this fingerprint or whose payload
  // format differs from `payload_format`.
  std::optional<std::string> toolchain_mismatch_with = std::nullopt;
  std::optional<std::uint32_t> payload_format = std::nullopt;
  bool dry_run = false;
};

struct EvictReport {
  struct Item { CacheKey key; EntryMeta meta; std::string reason; };
  std::vector<Item> removed;  // or would be removed, on dry_run
  std::uint64_t bytes_freed = 0;
};

class Store {
 public:
  // Opens (creating if needed, unless config.read_only) the store at config.dir.
  // Errors: permission (foreign-owned or world-writable dir without `shared`, or no
  // access), io, lmdb. A disabled config yields a store whose gets miss and whose puts
  // do nothing.
  static Result<std::shared_ptr<Store>> open(const Config& config);

  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Looks `key` up. Miss: nullopt. A corrupt or malformed entry is dropped, counted
  // (Counter::corrupt), logged once and reported as a miss. Counts a hit or miss.
  Result<std::optional<Entry>> get(const CacheKey& key);

  // Stores `payload` under `key`, replacing any entry. Grows the map when full, then
  // evicts least recently used entries past the budget. Errors: read_only, storage_full, lmdb.
  Result<void> put(const CacheKey& key, const EntryMeta& meta, std::span<const std::byte> payload);

  // Removes `key`. Returns whether an entry was there.
  Result<bool> remove(const CacheKey& key);

  // Calls `fn` for every entry's key and metadata (no payload), in key order, inside one
  // read transaction; stops early when `fn` returns false.
  Result<void> for_each(const std::function<bool(const CacheKey&, const EntryMeta&)>& fn);

  // Reads one entry with its payload verified, without counting a hit (for tools).
  Result<std::optional<Entry>> peek(const CacheKey& key);

  // Persisted counters plus live entry count and bytes.
  Result<StoreStats> stats();

  Result<EvictReport> evict(const EvictCriteria& criteria);

  // Writes batched last-use stamps and hit counts now (also done on destruction).
  Result<void> flush();

  // Removes every entry and resets counters.
  Result<void> clear();

  const Config& config() const;
  bool read_only() const;

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cccl_cache
