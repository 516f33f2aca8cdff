// Backfills written by a background thread: the tier stack hands a batch of verified
// shared hits (fetch_many's) to the local tier here, so that a start-up binds what it
// fetched while the local commit and its disk sync run. Until a batch is committed its
// copies are served from memory. flush() and the destructor wait for every batch; a
// process that dies first loses only local copies of entries its shared tiers still hold.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "cccl_cache/cache/key.hpp"
#include "cccl_cache/cache/store.hpp"
#include "cccl_cache/cache/tier.hpp"

namespace cccl_cache::detail {

class Backfiller {
 public:
  struct Item {
    CacheKey key;
    EntryMeta meta;
    SharedBytes payload;  // handed over by the shared tier, or a copy
    std::string signature;
  };
  using Batch = std::vector<Item>;
  using WriteFn = std::function<void(std::span<const PutItem>)>;

  Backfiller() = default;
  ~Backfiller() { flush(); }
  Backfiller(const Backfiller&) = delete;
  Backfiller& operator=(const Backfiller&) = delete;

  // Queues `batch`; `write` stores it on the background thread (batches in order).
  // Without a thread (the system refuses one) it is written here.
  void submit(Batch batch, WriteFn write);
  // Calls `use` with key's payload while its batch waits; returns whether it did.
  bool with(const CacheKey& key, const std::function<void(std::span<const std::byte>)>& use);
  bool holds(const CacheKey& key);
  // Waits until every submitted batch is written.
  void flush();

 private:
  using Pending = std::shared_ptr<const Batch>;
  static void write_batch(const Batch& batch, const WriteFn& write);
  // A child of fork() has no writer thread: it forgets the parent's (whose own writer
  // stores the batches) and starts with fresh locks.
  void after_fork();
  Pending find(const CacheKey& key);

  std::mutex mutex_;
  std::condition_variable written_;
  std::list<Pending> pending_;
  std::thread last_;  // the newest writer; each joins its predecessor first
  pid_t owner_ = ::getpid();
};

}  // namespace cccl_cache::detail
