// Store::Impl, shared by store.cpp and store_evict.cpp.
#pragma once

#include <memory>
#include <mutex>

#include "cccl_cache/cache/store.hpp"
#include "dir_safety.hpp"
#include "shared_env.hpp"

namespace cccl_cache {

struct Store::Impl {
  Config config;
  detail::DirInfo dir;
  bool disabled = false;  // config.disabled: no files at all
  bool read_only = false;

  // The environment, reacquired transparently after fork(). Null when disabled or
  // when a read-only store's directory does not exist.
  std::shared_ptr<detail::SharedEnv> env();

  // Drops (if writable), counts and logs (once per key) a corrupt entry.
  void on_corrupt(const std::shared_ptr<detail::SharedEnv>& env, const CacheKey& key,
                  const Error& why);
  // Reads and verifies `key`, then calls `fn` inside the read transaction; false on
  // miss (fn not called). Corrupt entries become misses.
  Result<bool> read_with(const CacheKey& key, const EntryFn& fn);
  // read_with() that also reads the entry's signature in the same transaction.
  Result<bool> read_signed_with(const CacheKey& key, const SignedEntryFn& fn);
  // The same read without the metadata: fn(payload). No usage-record lookup and no
  // copies of the envelope's strings (get_payload_with).
  Result<bool> read_payload_with(const CacheKey& key, const PayloadFn& fn);
  template <class Fn>
  Result<bool> read_entry(const CacheKey& key, Fn&& fn);
  // read_with() copying the entry out; nullopt on miss.
  Result<std::optional<Entry>> read(const CacheKey& key);
  // Records a hit or miss in the pending batch; flushes when the interval elapsed.
  void record(const std::shared_ptr<detail::SharedEnv>& env, const CacheKey& key, bool hit);
  Result<void> flush();

  std::mutex env_mu;
  std::shared_ptr<detail::SharedEnv> env_;
};

// Microseconds since the epoch.
std::int64_t now_us();

}  // namespace cccl_cache
