#include "backfill.hpp"

#include <unistd.h>

#include <new>
#include <system_error>

namespace cccl_cache::detail {

void Backfiller::write_batch(const Batch& batch, const WriteFn& write) {
  std::vector<PutItem> items;
  items.reserve(batch.size());
  for (const Item& f : batch) items.push_back({f.key, &f.meta, f.payload.bytes, f.signature});
  write(items);
}

void Backfiller::after_fork() {
  if (owner_ == ::getpid()) return;
  // Only this thread exists here: the locks may have been held by one that is gone, and
  // the writer's handle names a thread of the parent (never joined, so it is leaked).
  new (&mutex_) std::mutex;
  new (&written_) std::condition_variable;
  if (last_.joinable()) {
    // Kept reachable and never destroyed (a joinable std::thread may not be).
    static auto* orphans = new std::vector<std::thread>;
    orphans->push_back(std::move(last_));
  }
  pending_.clear();
  owner_ = ::getpid();
}

void Backfiller::submit(Batch batch, WriteFn write) {
  after_fork();
  auto pending = std::make_shared<const Batch>(std::move(batch));
  std::unique_lock lock(mutex_);
  pending_.push_back(pending);
  // Shared with the new writer, so that it stays ours to join if no thread starts.
  auto previous = std::make_shared<std::thread>(std::move(last_));
  try {
    last_ = std::thread([this, pending, write, previous] {
      if (previous->joinable()) previous->join();
      write_batch(*pending, write);
      std::lock_guard done(mutex_);
      pending_.remove(pending);
      written_.notify_all();
    });
  } catch (const std::system_error&) {
    lock.unlock();  // no thread: written here, after the batches before it
    if (previous->joinable()) previous->join();
    write_batch(*pending, write);
    lock.lock();
    pending_.remove(pending);
    written_.notify_all();
  }
}

Backfiller::Pending Backfiller::find(const CacheKey& key) {
  after_fork();
  std::lock_guard lock(mutex_);
  for (const Pending& batch : pending_)
    for (const Item& item : *batch)
      if (item.key == key) return batch;
  return nullptr;
}

bool Backfiller::with(const CacheKey& key,
                      const std::function<void(std::span<const std::byte>)>& use) {
  const Pending batch = find(key);  // kept alive while `use` reads it
  if (!batch) return false;
  for (const Item& item : *batch)
    if (item.key == key) {
      use(item.payload.bytes);
      return true;
    }
  return false;
}

bool Backfiller::holds(const CacheKey& key) { return find(key) != nullptr; }

void Backfiller::flush() {
  after_fork();
  std::thread last;
  {
    std::lock_guard lock(mutex_);
    last = std::move(last_);
  }
  if (last.joinable()) last.join();
  std::unique_lock lock(mutex_);
  written_.wait(lock, [&] { return pending_.empty(); });
}

}  // namespace cccl_cache::detail
