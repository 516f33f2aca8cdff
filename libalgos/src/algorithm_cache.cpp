// AlgorithmCache: spec + device -> bound executable, through the store.
// Layers: bound executables of this process (shared lock, no allocation on a hit),
// then the store (get_payload_with: the entry is verified, read as a view and bound while
// the read transaction holds it, so its cubin goes from the store's map to the driver
// uncopied), then a build (NVRTC), single-flight per (spec, CC) within the process.
#include "cccl_cache/algos/algorithm_cache.hpp"

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/merge_sort/build.hpp"
#include "cccl_cache/algos/merge_sort/serialize.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/log.hpp"
#include "algorithm_cache_access.hpp"
#include "cuda_driver.hpp"
#include "device_facts.hpp"

namespace cccl_cache::algos {

namespace ms = merge_sort;

namespace {

// The in-process key: the spec itself (compared field by field), not its digest, so
// that a repeat needs no encoding or hashing of the canonical bytes.
struct BoundKey {
  ms::Spec spec;
  int device;
  bool operator==(const BoundKey&) const = default;
};

struct BoundKeyHash {
  std::size_t operator()(const BoundKey& k) const noexcept {
    std::size_t h = static_cast<std::size_t>(k.spec.key_type);
    h = h * 31 + static_cast<std::size_t>(k.spec.value_type);
    h = h * 31 + static_cast<std::size_t>(k.spec.offset_type);
    h = h * 31 + static_cast<std::size_t>(k.spec.comparator.kind);
    if (k.spec.comparator.kind == ComparatorKind::custom) {
      h = h * 31 + std::hash<std::string>{}(k.spec.comparator.name);
      h = h * 31 + std::hash<std::string>{}(k.spec.comparator.source);
    }
    return h * 31 + static_cast<std::size_t>(k.device);
  }
};

// What one build-or-load produced, shared with concurrent waiters.
struct Obtained {
  Result<ms::BuildResult> result;
  bool built = false;
};

// What a cache holds for one process: its bound executables and its builds in flight.
// A fork()ed child starts a fresh one (AlgorithmCache::Impl::current()).
struct ProcessState {
  explicit ProcessState(std::uint64_t fork_generation) : generation(fork_generation) {}
  const std::uint64_t generation;  // detail::fork_generation() when made

  mutable std::shared_mutex bound_mutex;
  std::unordered_map<BoundKey, std::shared_ptr<const ms::Executable>, BoundKeyHash> bound;

  std::mutex flight_mutex;
  std::map<CacheKey, std::shared_future<std::shared_ptr<const Obtained>>> in_flight;

  std::vector<std::promise<std::shared_ptr<const Obtained>>> held_for_test;  // never set
  ProcessState* next_abandoned = nullptr;
};

// The states fork()ed children left behind, never destroyed: destroying their
// executables would call the driver with the parent's handles. Kept reachable (from
// this global) so that leak checkers do not report them.
std::atomic<ProcessState*> g_abandoned{nullptr};

void abandon(ProcessState* s) {
  s->next_abandoned = g_abandoned.load(std::memory_order_relaxed);
  while (!g_abandoned.compare_exchange_weak(s->next_abandoned, s, std::memory_order_release,
                                            std::memory_order_relaxed)) {
  }
}

}  // namespace

struct AlgorithmCache::Impl {
  std::shared_ptr<Store> store;
  std::string toolchain;  // Toolchain::current().fingerprint(): every usable entry's
  std::atomic<ProcessState*> state{nullptr};

  std::atomic<std::uint64_t> builds{0}, store_hits{0}, memory_hits{0};
  std::atomic<bool> warned_store_get{false}, warned_corrupt{false}, warned_store_put{false},
      warned_toolchain{false}, warned_fork{false};

  ~Impl() {
    ProcessState* s = state.load(std::memory_order_acquire);
    if (s->generation == detail::fork_generation())
      delete s;
    else
      abandon(s);  // a parent's state, never used in this child
  }

  // This process's state. In a fork()ed child the parent's is stale: its executables are
  // bound to the parent's contexts (CUDA state is not inherited across fork), its builds
  // in flight belong to threads that do not exist here and its locks may be held by
  // them. The child sets it aside (never touching it) and starts afresh: it rebinds,
  // or gets bind's error where the driver cannot be used after the fork.
  ProcessState& current() {
    ProcessState* s = state.load(std::memory_order_acquire);
    const std::uint64_t generation = detail::fork_generation();
    if (s->generation == generation) [[likely]]
      return *s;
    auto fresh = std::make_unique<ProcessState>(generation);
    while (s->generation != generation) {
      if (state.compare_exchange_strong(s, fresh.get(), std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
        abandon(s);
        s = fresh.release();
        warn_once(warned_fork,
                  "used after fork(): the parent's bound executables and builds in flight are "
                  "dropped in this process; it binds its own");
      }
    }
    return *s;
  }

  void warn_once(std::atomic<bool>& flag, const std::string& what) {
    if (!flag.exchange(true))
      logger()->warn("algorithm cache: {} (further such warnings suppressed)", what);
  }

  // A store hit, bound to `device` straight from the store's map. nullopt when the
  // store has no usable entry (absent, unreadable, corrupt, another spec): obtain()
  // then re-reads it under single-flight, warns, and builds.
  std::optional<Result<ms::Executable>> bind_stored(const ms::Spec& spec, std::uint32_t cc,
                                                    const CacheKey& key, int device) {
    if (!store) return std::nullopt;
    std::optional<Result<ms::Executable>> bound_exe;
    auto hit = store->get_payload_with(key, [&](std::span<const std::byte> payload) {
      auto view = ms::deserialize_view(payload, cc, ms::Integrity::verified_by_store);
      if (view && view->spec == spec && view->toolchain == toolchain)
        bound_exe.emplace(ms::bind(*view, device));
    });
    if (!hit || !*hit || !bound_exe) return std::nullopt;
    store_hits.fetch_add(1, std::memory_order_relaxed);
    return bound_exe;
  }

  // Store hit, or build and put. Never called twice at once for one key (see obtain()).
  std::shared_ptr<const Obtained> load_or_build(const ms::Spec& spec, std::uint32_t cc,
                                                const CacheKey& key) {
    auto out = std::make_shared<Obtained>();
    if (store) {
      // Deserialized straight from the store's map: the payload is never copied whole.
      std::optional<Result<ms::BuildResult>> loaded;
      auto hit = store->get_with(key, [&](const EntryMeta&, std::span<const std::byte> payload) {
        loaded.emplace(ms::deserialize(payload, cc));  // a rare path: checked in full
      });
      if (!hit) {
        warn_once(warned_store_get,
                  "store read failed, building instead: " + hit.error().describe());
      } else if (*hit && loaded) {
        auto& loaded_result = *loaded;
        if (loaded_result && loaded_result->spec == spec && loaded_result->toolchain == toolchain) {
          store_hits.fetch_add(1, std::memory_order_relaxed);
          out->result = std::move(*loaded_result);
          return out;
        }
        if (loaded_result && loaded_result->spec == spec) {
          // The key covers the toolchain, so only a mis-keyed or crafted entry gets here.
          warn_once(warned_toolchain, "store entry " + key.to_string() + " was built by '" +
                                          loaded_result->toolchain + "', not by this '" +
                                          toolchain + "'; rebuilding");
        } else {
          warn_once(warned_corrupt, "unusable store entry " + key.to_string() +
                                        ", rebuilding: " +
                                        (loaded_result ? std::string("spec mismatch")
                                                       : loaded_result.error().describe()));
        }
      }
    }
    auto built = ms::build(spec, cc);
    builds.fetch_add(1, std::memory_order_relaxed);
    out->built = true;
    if (built && store && !store->read_only()) {
      EntryMeta meta;
      meta.algorithm = ms::kAlgorithmName;
      meta.summary = ms::summary(spec);
      meta.toolchain = built->toolchain;
      meta.payload_format = kBuildFormatVersion;
      const auto bytes = ms::serialize(*built);
      if (auto put = store->put(key, meta, bytes); !put)
        warn_once(warned_store_put, "store write failed (the build is kept in memory only): " +
                                        put.error().describe());
    }
    out->result = std::move(built);
    return out;
  }

  // Single-flight: the first caller for `key` does the work, later ones wait for it.
  std::shared_ptr<const Obtained> obtain(const ms::Spec& spec, std::uint32_t cc,
                                         const CacheKey& key) {
    ProcessState& ps = current();
    std::promise<std::shared_ptr<const Obtained>> promise;
    {
      std::unique_lock lock(ps.flight_mutex);
      if (auto it = ps.in_flight.find(key); it != ps.in_flight.end()) {
        auto future = it->second;
        lock.unlock();
        return future.get();
      }
      ps.in_flight.emplace(key, promise.get_future().share());
    }
    auto obtained = load_or_build(spec, cc, key);
    {
      std::lock_guard lock(ps.flight_mutex);
      ps.in_flight.erase(key);
    }
    promise.set_value(obtained);
    return obtained;
  }
};

AlgorithmCache::AlgorithmCache(std::shared_ptr<Store> store) : impl_(std::make_unique<Impl>()) {
  impl_->store = std::move(store);
  impl_->state.store(new ProcessState(detail::fork_generation()), std::memory_order_release);
  // Per-process set-up, done here once rather than inside the first request: the
  // toolchain fingerprint every key covers, and the driver's entry points (when there
  // is no driver this fails fast and requests that need a GPU report it).
  impl_->toolchain = Toolchain::current().fingerprint();
  (void)detail::driver();
}

AlgorithmCache::~AlgorithmCache() = default;

Result<std::shared_ptr<const ms::Executable>> AlgorithmCache::merge_sort(const ms::Spec& spec,
                                                                         int device) {
  BoundKey bound_key{spec, device};
  ProcessState& ps = impl_->current();
  {
    std::shared_lock lock(ps.bound_mutex);
    if (auto it = ps.bound.find(bound_key); it != ps.bound.end()) {
      impl_->memory_hits.fetch_add(1, std::memory_order_relaxed);
      return it->second;
    }
  }
  if (auto valid = ms::validate(spec); !valid) return tl::unexpected(valid.error());
  auto cc = device_cc(device);  // queried once per process and device
  if (!cc) return tl::unexpected(cc.error());
  const CacheKey key = ms::cache_key(spec, *cc);
  auto exe = impl_->bind_stored(spec, *cc, key, device);
  if (!exe) {
    auto obtained = impl_->obtain(spec, *cc, key);
    if (!obtained->result) return tl::unexpected(obtained->result.error());
    exe.emplace(ms::bind(*obtained->result, device));
  }
  if (!*exe) return tl::unexpected(exe->error());
  auto shared = std::make_shared<const ms::Executable>(std::move(**exe));
  std::unique_lock lock(ps.bound_mutex);
  // A concurrent caller may have bound the same executable meanwhile: keep one.
  auto [it, inserted] = ps.bound.try_emplace(std::move(bound_key), std::move(shared));
  return it->second;
}

Result<bool> AlgorithmCache::prewarm_merge_sort(const ms::Spec& spec, std::uint32_t cc) {
  if (auto valid = ms::validate(spec); !valid) return tl::unexpected(valid.error());
  auto obtained = impl_->obtain(spec, cc, ms::cache_key(spec, cc));
  if (!obtained->result) return tl::unexpected(obtained->result.error());
  return obtained->built;
}

void detail::AlgorithmCacheAccess::hold_flight(AlgorithmCache& cache, const ms::Spec& spec,
                                               std::uint32_t cc) {
  ProcessState& ps = cache.impl_->current();
  std::lock_guard lock(ps.flight_mutex);
  auto& promise = ps.held_for_test.emplace_back();
  ps.in_flight.insert_or_assign(ms::cache_key(spec, cc), promise.get_future().share());
}

bool detail::AlgorithmCacheAccess::in_flight(AlgorithmCache& cache, const ms::Spec& spec,
                                             std::uint32_t cc) {
  ProcessState& ps = cache.impl_->current();
  std::lock_guard lock(ps.flight_mutex);
  return ps.in_flight.contains(ms::cache_key(spec, cc));
}

AcquireStats AlgorithmCache::stats() const {
  return AcquireStats{impl_->builds.load(), impl_->store_hits.load(), impl_->memory_hits.load()};
}

}  // namespace cccl_cache::algos
