// One LMDB environment per process and directory, shared by every Store handle
// opened on it, plus the in-memory batch of hits, misses and last-use stamps that
// waits to be flushed.
#pragma once

#include <sys/types.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/key.hpp"
#include "cccl_cache/cache/stats.hpp"
#include "dir_safety.hpp"
#include "lmdb_handles.hpp"

namespace cccl_cache::detail {

struct Touch {
  std::int64_t last_used = 0;  // microseconds since the epoch
  std::uint64_t hits = 0;
};

// Hits, misses and touches recorded since the last flush.
struct PendingBatch {
  std::unordered_map<CacheKey, Touch, CacheKeyHash> touches;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t corrupt = 0;  // only used read-only, where nothing is written
  // Counters kFirstEventCounter ... kLastEventCounter (Store::count), in that order.
  std::array<std::uint64_t, kLastEventCounter - kFirstEventCounter + 1> events{};
  bool empty() const {
    for (auto n : events)
      if (n) return false;
    return touches.empty() && hits == 0 && misses == 0;
  }
};

// Bumped in every child after fork(); environments from an older generation are stale.
std::uint64_t fork_generation() noexcept;

class SharedEnv {
 public:
  // The process-wide environment for `dir` (keyed by device and inode), opening it
  // when this process has none (or only one inherited across fork()).
  static Result<std::shared_ptr<SharedEnv>> acquire(const Config& config, const DirInfo& dir);
  ~SharedEnv();
  SharedEnv(const SharedEnv&) = delete;
  SharedEnv& operator=(const SharedEnv&) = delete;

  MDB_env* get() const { return env_.get(); }
  bool stale() const { return generation_ != fork_generation(); }
  bool read_only() const { return read_only_; }
  // Opened with MDB_NOLOCK (a declared immutable image): map bytes may change under a
  // reader, so readers verify a private copy.
  bool nolock() const { return nolock_; }
  std::uint64_t max_map_size() const { return max_map_size_; }
  bool has_dbs() const { return has_dbs_; }
  MDB_dbi entries() const { return entries_; }
  MDB_dbi usage() const { return usage_; }
  MDB_dbi counters() const { return counters_; }
  // The signatures database (key -> "name:base64"); absent (false) in a store opened
  // read-only that was written before it existed: every entry is then unsigned.
  bool has_signatures() const { return has_signatures_; }
  MDB_dbi signatures() const { return signatures_; }
  std::uint64_t map_size() const;

  // A live reader holding a snapshot more than two transactions old (its pages cannot
  // be reused until it ends): "pid N holds a snapshot M transactions old"; nullopt when
  // none (or without a reader table).
  std::optional<std::string> pinning_reader() const;

  // Begin a transaction; MDB_MAP_RESIZED and MDB_READERS_FULL are handled and retried.
  Result<lmdb::ReadTxn> begin_read();
  Result<lmdb::WriteTxn> begin_write();

  // Runs fn(WriteTxn&) -> Result<T> in a write transaction and commits it. On
  // MDB_MAP_FULL the map grows (x2, capped by max_map_size) and fn runs again.
  template <class Fn>
  auto write(Fn&& fn) -> decltype(fn(std::declval<lmdb::WriteTxn&>()));

  std::mutex pending_mu;
  PendingBatch pending;                              // guarded by pending_mu
  std::chrono::steady_clock::time_point last_flush;  // guarded by pending_mu

  // Returns true the first time it is called for `key` in this process and environment
  // (unusable entries are logged once).
  bool first_report(const CacheKey& key) {
    std::lock_guard lock(reported_mu_);
    return reported_.insert(key).second;
  }

 private:
  SharedEnv() = default;
  Result<void> open(const Config& config, const DirInfo& dir);
  // `fresh`: the data file was created by this open (its databases are new).
  Result<void> open_dbs(bool fresh);
  // Grows the map unless another thread already did since `seen` was read.
  Result<void> grow(std::uint64_t seen);
  void adopt_new_size();
  // mdb_reader_check: frees the reader slots (and snapshots) of dead processes.
  // Returns how many were freed.
  int clear_dead_readers();
  // Whether a periodic reader check is due (every kReaderCheckEvery write txns or
  // kReaderCheckInterval); marks it done.
  bool reader_check_due();
  static constexpr std::uint64_t kReaderCheckEvery = 64;  // write txns
  static constexpr std::chrono::seconds kReaderCheckInterval{10};
  // The Error for a failed commit. LMDB reports a short write on a full disk as EIO:
  // with (almost) no free space left that is storage_full, not an I/O fault.
  Error commit_error(int rc) const;
  // LMDB reuses pages freed by transaction N only from transaction N+2 on: commits
  // one tiny transaction so that space freed by the latest eviction becomes usable.
  void nudge();

  lmdb::Env env_;
  std::filesystem::path dir_;
  pid_t pid_ = 0;
  std::uint64_t generation_ = 0;
  bool read_only_ = false;
  bool nolock_ = false;
  bool has_dbs_ = false;
  bool has_signatures_ = false;
  std::atomic<std::uint64_t> writes_{0};
  std::atomic<std::int64_t> last_reader_check_s_{0};  // steady clock, seconds
  MDB_dbi entries_ = 0, usage_ = 0, counters_ = 0, signatures_ = 0;
  std::uint64_t max_map_size_ = 0;
  std::shared_mutex resize_mu_;  // shared: an open txn; exclusive: a map resize
  lmdb::ReadTxnPool read_pool_;
  std::mutex reported_mu_;
  std::unordered_set<CacheKey, CacheKeyHash> reported_;
};

template <class Fn>
auto SharedEnv::write(Fn&& fn) -> decltype(fn(std::declval<lmdb::WriteTxn&>())) {
  bool nudged = false;
  for (int attempt = 0;; ++attempt) {
    const std::uint64_t seen = map_size();
    auto txn = begin_write();
    if (!txn) return tl::unexpected(txn.error());
    auto result = fn(*txn);
    if (result && !txn->map_full) {
      int rc = txn->commit();
      if (rc == MDB_SUCCESS) return result;
      if (!txn->map_full) return tl::unexpected(commit_error(rc));
    } else if (!txn->map_full) {
      return result;  // fn failed for another reason; the txn aborts
    }
    txn->abort();  // grow needs no open transaction in this process
    if (attempt >= 40)
      return fail(ErrorCode::storage_full, "map still full after growing it repeatedly");
    if (auto g = grow(seen); !g) {
      if (nudged || g.error().code != ErrorCode::storage_full) return tl::unexpected(g.error());
      nudged = true;  // at the ceiling: let pages freed by the last txn become reusable, retry once
      nudge();
    }
  }
}

}  // namespace cccl_cache::detail
