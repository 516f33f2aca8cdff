// Move-only RAII wrappers for LMDB handles. Read and write transactions are
// different types; each holds a shared lock on its environment's resize mutex so
// that the map is never resized while a transaction of this process is open.
#pragma once

#include <lmdb.h>

#include <cstddef>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::lmdb {

// An Error for LMDB return code `rc` while doing `what`. MDB_MAP_FULL and ENOSPC map
// to storage_full, EACCES/EPERM to permission, EROFS to read_only, others to lmdb/io.
Error error(int rc, std::string_view what);

inline MDB_val val(std::span<const std::byte> s) {
  return MDB_val{s.size(), const_cast<std::byte*>(s.data())};
}
inline std::span<const std::byte> bytes(const MDB_val& v) {
  return {static_cast<const std::byte*>(v.mv_data), v.mv_size};
}

class Env {
 public:
  Env() = default;
  explicit Env(MDB_env* h) : h_(h) {}
  Env(Env&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Env& operator=(Env&& o) noexcept {
    reset();
    h_ = std::exchange(o.h_, nullptr);
    return *this;
  }
  ~Env() { reset(); }
  MDB_env* get() const { return h_; }
  // Gives up ownership without closing (used after fork(): the child must not close
  // the parent's environment, which would drop this process's file locks).
  MDB_env* release() { return std::exchange(h_, nullptr); }
  void reset() {
    if (h_) mdb_env_close(std::exchange(h_, nullptr));
  }

 private:
  MDB_env* h_ = nullptr;
};

// Reset read transactions kept for reuse. With MDB_NOTLS every mdb_txn_begin takes
// the reader-table mutex shared by all processes; a reset txn keeps its reader slot
// and mdb_txn_renew needs no lock, so hits in many processes do not contend.
class ReadTxnPool {
 public:
  ReadTxnPool() = default;
  ReadTxnPool(const ReadTxnPool&) = delete;
  ReadTxnPool& operator=(const ReadTxnPool&) = delete;
  // A reset txn to renew, or null when none is pooled.
  MDB_txn* take() {
    std::lock_guard lock(mu_);
    if (free_.empty()) return nullptr;
    MDB_txn* t = free_.back();
    free_.pop_back();
    return t;
  }
  // Resets `t` and keeps it (or aborts it when the pool is full).
  void give_back(MDB_txn* t) {
    mdb_txn_reset(t);
    {
      std::lock_guard lock(mu_);
      if (free_.size() < kMax) {
        free_.push_back(t);
        return;
      }
    }
    mdb_txn_abort(t);
  }
  // Aborts every pooled txn. Must run before the environment closes, and only in the
  // process that opened it (aborting frees the reader slot in the shared table).
  void drain() {
    std::lock_guard lock(mu_);
    for (MDB_txn* t : free_) mdb_txn_abort(t);
    free_.clear();
  }

 private:
  static constexpr std::size_t kMax = 64;
  std::mutex mu_;
  std::vector<MDB_txn*> free_;
};

class ReadTxn {
 public:
  ReadTxn(MDB_txn* h, std::shared_lock<std::shared_mutex> guard, ReadTxnPool* pool)
      : h_(h), pool_(pool), guard_(std::move(guard)) {}
  ReadTxn(ReadTxn&& o) noexcept
      : h_(std::exchange(o.h_, nullptr)), pool_(o.pool_), guard_(std::move(o.guard_)) {}
  ReadTxn& operator=(ReadTxn&&) = delete;
  // Returns the txn to its pool (reset) or aborts it; the resize guard drops after.
  ~ReadTxn() {
    if (!h_) return;
    if (pool_)
      pool_->give_back(h_);
    else
      mdb_txn_abort(h_);
  }
  MDB_txn* get() const { return h_; }
  // MDB_SUCCESS, MDB_NOTFOUND or an error. `out` views the map until the txn ends.
  int get(MDB_dbi dbi, std::span<const std::byte> key, MDB_val& out) const {
    MDB_val k = val(key);
    return mdb_get(h_, dbi, &k, &out);
  }

 private:
  MDB_txn* h_;
  ReadTxnPool* pool_;
  std::shared_lock<std::shared_mutex> guard_;
};

class WriteTxn {
 public:
  WriteTxn(MDB_txn* h, std::shared_lock<std::shared_mutex> guard)
      : h_(h), guard_(std::move(guard)) {}
  WriteTxn(WriteTxn&& o) noexcept
      : map_full(o.map_full), h_(std::exchange(o.h_, nullptr)), guard_(std::move(o.guard_)) {}
  WriteTxn& operator=(WriteTxn&&) = delete;
  ~WriteTxn() { abort(); }
  MDB_txn* get() const { return h_; }
  int get(MDB_dbi dbi, std::span<const std::byte> key, MDB_val& out) const {
    MDB_val k = val(key);
    return mdb_get(h_, dbi, &k, &out);
  }
  // mdb_put; on MDB_RESERVE `v.mv_data` receives the space to fill. Records map-full.
  int put(MDB_dbi dbi, std::span<const std::byte> key, MDB_val& v, unsigned flags = 0) {
    MDB_val k = val(key);
    int rc = mdb_put(h_, dbi, &k, &v, flags);
    map_full = map_full || rc == MDB_MAP_FULL;
    return rc;
  }
  int del(MDB_dbi dbi, std::span<const std::byte> key) {
    MDB_val k = val(key);
    return mdb_del(h_, dbi, &k, nullptr);
  }
  // Releases the handle before mdb_txn_commit (LMDB frees it even on failure), then
  // drops the resize guard. Returns mdb_txn_commit's code.
  int commit() {
    MDB_txn* h = std::exchange(h_, nullptr);
    int rc = mdb_txn_commit(h);
    map_full = map_full || rc == MDB_MAP_FULL;
    if (guard_.owns_lock()) guard_.unlock();
    return rc;
  }
  void abort() {
    if (h_) mdb_txn_abort(std::exchange(h_, nullptr));
    if (guard_.owns_lock()) guard_.unlock();
  }
  bool map_full = false;  // some operation hit MDB_MAP_FULL: the caller grows and retries

 private:
  MDB_txn* h_;
  std::shared_lock<std::shared_mutex> guard_;
};

class Cursor {
 public:
  explicit Cursor(MDB_cursor* h) : h_(h) {}
  Cursor(Cursor&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Cursor& operator=(Cursor&&) = delete;
  ~Cursor() {
    if (h_) mdb_cursor_close(h_);
  }
  MDB_cursor* get() const { return h_; }
  // Opens a cursor on `dbi` inside `txn`; nullopt with `rc` set on failure.
  static std::optional<Cursor> open(MDB_txn* txn, MDB_dbi dbi, int& rc) {
    MDB_cursor* c = nullptr;
    rc = mdb_cursor_open(txn, dbi, &c);
    if (rc != MDB_SUCCESS) return std::nullopt;
    return Cursor(c);
  }
  int next(MDB_val& k, MDB_val& v, MDB_cursor_op op = MDB_NEXT) {
    return mdb_cursor_get(h_, &k, &v, op);
  }

 private:
  MDB_cursor* h_;
};

}  // namespace cccl_cache::lmdb
