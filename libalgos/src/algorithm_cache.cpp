// AlgorithmCache: spec + device -> bound executable, through the tier stack.
// Layers: bound executables of this process (shared lock, no allocation on a hit),
// then the local store (get_payload_with: the entry is verified, read as a view and
// bound while the read transaction holds it, so its cubin goes from the store's map to
// the driver uncopied), then every tier (local, images, remote; exact CC first, then
// lower minors), then a build (NVRTC) under the tier stack's claim
// (TierStack::load_or_build: the host claim, then the cluster lease; write-through).
// Single-flight: per (key, device) for a whole acquire (load or build, then bind), per
// key for the build it may share with prewarm, across processes and hosts by the claim.
// The generic code is type-erased below and typed in acquire/prewarm, which are
// instantiated for every algorithm of the registry.
#include "cccl_cache/algos/algorithm_cache.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/cc_family.hpp"
#include "cccl_cache/cache/log.hpp"
#include "algorithm_cache_access.hpp"
#include "cuda_driver.hpp"
#include "device_facts.hpp"

namespace cccl_cache::algos {

namespace {

// Hash of a spec from its fields: the in-process key is the spec itself (compared
// field by field), never its encoding, so that a repeat needs no encoding or hashing
// of canonical bytes.
struct FieldHasher {
  std::size_t h = 0;
  void mix(std::size_t v) { h = h * 31 + v; }
  void operator()(const Field&, ScalarType v) { mix(static_cast<std::size_t>(v)); }
  void operator()(const Field& f, const ElementType& v) {
    (*this)(f, v.scalar);
    if (v.is_struct()) {
      mix(std::hash<std::string>{}(v.layout.name));
      mix(std::hash<std::string>{}(v.layout.definition));
      mix(v.layout.size);
      mix(v.layout.alignment);
    }
  }
  void operator()(const Field&, bool v) { mix(v ? 1 : 2); }
  void operator()(const Field&, std::uint32_t v) { mix(v); }
  void operator()(const Field&, const Operator& v) {
    mix(static_cast<std::size_t>(v.kind));
    if (v.kind == OpKind::custom) {
      mix(std::hash<std::string>{}(v.name));
      mix(std::hash<std::string>{}(v.source));
    }
  }
  void operator()(const Field& f, const Iterator& v) {
    mix(static_cast<std::size_t>(v.kind));
    if (v.kind == IteratorKind::pointer) return;
    mix(static_cast<std::size_t>(v.type) * 256 + static_cast<std::size_t>(v.index_type));
    mix(v.counting_base ? 1 : 2);
    mix(static_cast<std::size_t>(v.load));
    (*this)(f, v.op);
  }
};

template <class Spec>
struct BoundKey {
  Spec spec;
  int device;
  bool operator==(const BoundKey&) const = default;
};

template <class Spec>
struct BoundKeyHash {
  std::size_t operator()(const BoundKey<Spec>& k) const noexcept {
    FieldHasher hasher;
    Spec::fields(k.spec, hasher);
    return hasher.h * 31 + static_cast<std::size_t>(k.device);
  }
};

// The executables of one algorithm bound so far.
template <class A>
struct BoundMap {
  using Exe = typename A::Executable;
  std::shared_mutex mutex;
  std::unordered_map<BoundKey<typename A::Spec>, std::shared_ptr<const Exe>,
                     BoundKeyHash<typename A::Spec>>
      map;
};

// What one load-or-build produced, shared with concurrent waiters.
struct Obtained {
  Result<BuildRecord> record;
  bool built = false;
};

using Bound = Result<std::shared_ptr<const void>>;

// What a cache holds for one process: its bound executables and its work in flight. A
// fork()ed child starts a fresh one (AlgorithmCache::Impl::current()).
struct ProcessState {
  explicit ProcessState(std::uint64_t fork_generation) : generation(fork_generation) {}
  const std::uint64_t generation;  // detail::fork_generation() when made

  std::mutex maps_mutex;
  std::map<AlgorithmId, std::shared_ptr<void>> bound_maps;  // BoundMap<A> per algorithm
  // The same maps by id, read without a lock on every acquire (set once, never reset).
  std::array<std::atomic<void*>, 256> bound_by_id{};

  std::mutex flight_mutex;
  std::map<CacheKey, std::shared_future<std::shared_ptr<const Obtained>>> building;
  std::map<std::pair<CacheKey, int>, std::shared_future<Bound>> binding;

  std::vector<std::promise<std::shared_ptr<const Obtained>>> held_for_test;  // never set
  ProcessState* next_abandoned = nullptr;

  template <class A>
  BoundMap<A>& bound_map() {
    auto& fast = bound_by_id[static_cast<std::size_t>(A::Spec::kAlgorithm)];
    if (void* p = fast.load(std::memory_order_acquire)) [[likely]]
      return *static_cast<BoundMap<A>*>(p);
    std::lock_guard lock(maps_mutex);
    auto& slot = bound_maps[A::Spec::kAlgorithm];
    if (!slot) slot = std::make_shared<BoundMap<A>>();
    fast.store(slot.get(), std::memory_order_release);
    return *static_cast<BoundMap<A>*>(slot.get());
  }
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
  std::shared_ptr<TierStack> tiers;  // null: no caching beyond this process
  // Toolchain::current().fingerprint(algorithm) of every registered algorithm: the
  // toolchain of each usable entry of that algorithm.
  std::map<AlgorithmId, std::string> toolchains;
  const std::string& toolchain(AlgorithmId algorithm) const {
    static const std::string none;
    const auto it = toolchains.find(algorithm);
    return it == toolchains.end() ? none : it->second;
  }
  std::atomic<ProcessState*> state{nullptr};

  bool cc_fallback = true;  // config cc_fallback: lower-minor entries serve a device
  std::atomic<std::uint64_t> builds{0}, store_hits{0}, memory_hits{0}, claim_waits{0},
      fallback_hits{0}, prefetched{0};
  std::atomic<bool> warned_store_get{false}, warned_corrupt{false}, warned_fork{false};

  ~Impl() {
    ProcessState* s = state.load(std::memory_order_acquire);
    if (s->generation == detail::fork_generation())
      delete s;
    else
      abandon(s);  // a parent's state, never used in this child
  }

  // This process's state. In a fork()ed child the parent's is stale: its executables
  // are bound to the parent's contexts (CUDA state is not inherited across fork), its
  // work in flight belongs to threads that do not exist here and its locks may be held
  // by them. The child sets it aside (never touching it) and starts afresh: it rebinds,
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
                  "used after fork(): the parent's bound executables and work in flight are "
                  "dropped in this process; it binds its own");
      }
    }
    return *s;
  }

  void warn_once(std::atomic<bool>& flag, const std::string& what) {
    if (!flag.exchange(true))
      logger()->warn("algorithm cache: {} (further such warnings suppressed)", what);
  }

  // Runs `work` once for `key` at a time in this process; concurrent callers wait for
  // its result.
  template <class K, class V, class Work>
  V single_flight(std::map<K, std::shared_future<V>> ProcessState::*flights, const K& key,
                  Work&& work) {
    ProcessState& ps = current();
    std::promise<V> promise;
    {
      std::unique_lock lock(ps.flight_mutex);
      if (auto it = (ps.*flights).find(key); it != (ps.*flights).end()) {
        auto future = it->second;
        lock.unlock();
        return future.get();
      }
      (ps.*flights).emplace(key, promise.get_future().share());
    }
    V value = work();
    {
      std::lock_guard lock(ps.flight_mutex);
      (ps.*flights).erase(key);
    }
    promise.set_value(value);
    return value;
  }

  // Store hit (checked in full by `accept`, which returns whether the stored entry
  // is the spec asked for), or build and put. Single-flight per key.
  std::shared_ptr<const Obtained> obtain(
      const CacheKey& key, const std::string& summary,
      const std::function<Result<void>(const BuildRecordView&)>& accept,
      const std::function<Result<BuildRecord>()>& build) {
    return single_flight(&ProcessState::building, key,
                         [&] { return load_or_build(key, summary, accept, build); });
  }

  // A tier's payload for `key`, checked in full: its record's view, or why it is unusable.
  Result<BuildRecordView> check_view(std::span<const std::byte> payload, const CacheKey& key,
                                     const std::function<Result<void>(const BuildRecordView&)>& accept) {
    auto record = parse_record(payload, key.cc);
    if (!record) return tl::unexpected(record.error());
    if (const std::string& own = toolchain(record->algorithm); record->toolchain != own)
      // The key covers the toolchain: only a mis-keyed or crafted entry gets here.
      return fail(ErrorCode::format, "built by '" + std::string(record->toolchain) +
                                         "', not by this '" + own + "'");
    if (auto ok = accept(*record); !ok) return tl::unexpected(ok.error());
    return record;
  }
  // check_view(), owned.
  Result<BuildRecord> check(std::span<const std::byte> payload, const CacheKey& key,
                            const std::function<Result<void>(const BuildRecordView&)>& accept) {
    auto record = check_view(payload, key, accept);
    if (!record) return tl::unexpected(record.error());
    return to_owned(*record);
  }

  // prefetch(): the entries of `specs` for sm_<ccs[0]> (else, in a second batch, the
  // lower CCs of `ccs`) made local. Unusable entries are logged once.
  Result<PrefetchReport> prefetch(std::span<const AnySpec> specs, std::span<const std::uint32_t> ccs);

  // The entry of `key` from the first tier holding a usable one (a shared hit is
  // backfilled); nullopt on a miss. Unusable entries and tier errors are logged once.
  std::optional<BuildRecord> load(const CacheKey& key,
                                  const std::function<Result<void>(const BuildRecordView&)>& accept) {
    if (!tiers) return std::nullopt;
    std::optional<BuildRecord> loaded;
    std::optional<Error> rejected;
    auto hit = tiers->get(key, [&](std::span<const std::byte> payload) {
      auto record = check(payload, key, accept);
      if (!record) rejected = record.error();
      else loaded = std::move(*record);
      return record.has_value();
    });
    if (!hit)
      warn_once(warned_store_get, "store read failed, building instead: " + hit.error().describe());
    else if (!*hit && rejected)
      warn_once(warned_corrupt, "unusable entry " + key.to_string() + ": " + rejected->describe());
    if (loaded) store_hits.fetch_add(1, std::memory_order_relaxed);
    return loaded;
  }

  // Through the tier stack: a verified entry `accept` takes from any tier, else the
  // claim (host, cluster), a build, stored locally and published.
  std::shared_ptr<const Obtained> load_or_build(
      const CacheKey& key, const std::string& summary,
      const std::function<Result<void>(const BuildRecordView&)>& accept,
      const std::function<Result<BuildRecord>()>& build) {
    auto out = std::make_shared<Obtained>();
    auto build_here = [&] {
      out->record = build();
      out->built = true;
      builds.fetch_add(1, std::memory_order_relaxed);
    };
    if (!tiers) {
      build_here();
      return out;
    }
    std::optional<BuildRecord> loaded;
    std::optional<Error> rejected;
    auto take = [&](std::span<const std::byte> payload) {
      auto record = check(payload, key, accept);
      if (!record) rejected = record.error();
      else loaded = std::move(*record);
      return record.has_value();
    };
    auto obtained = tiers->load_or_build(key, take, [&]() -> Result<TierStack::Built> {
      if (rejected)
        warn_once(warned_corrupt, "unusable entry " + key.to_string() +
                                      ", rebuilding: " + rejected->describe());
      build_here();
      if (!out->record) return tl::unexpected(out->record.error());
      TierStack::Built entry;
      entry.meta.algorithm = std::string(algorithm_name(out->record->algorithm));
      entry.meta.summary = summary;
      entry.meta.toolchain = out->record->toolchain;
      entry.meta.payload_format = kBuildFormatVersion;
      entry.payload = serialize_record(*out->record);
      return entry;
    });
    if (!obtained) {
      if (!out->built) {  // the local store failed before any build: build without it
        warn_once(warned_store_get, "store read failed, building instead: " +
                                        obtained.error().describe());
        build_here();
      }
      return out;
    }
    if (obtained->waited) claim_waits.fetch_add(1, std::memory_order_relaxed);
    if (!obtained->built) {
      store_hits.fetch_add(1, std::memory_order_relaxed);
      out->record = std::move(*loaded);
    }
    return out;
  }
};

namespace {

// Accepts a stored record only if it is this algorithm's, passes its checks and holds
// exactly `spec`.
template <class A>
Result<void> holds_spec(const BuildRecordView& record, const typename A::Spec& spec) {
  auto v = typed_view<A>(record);
  if (!v) return tl::unexpected(v.error());
  if (!(v->spec == spec)) return fail(ErrorCode::corrupt, "the entry holds another spec");
  return {};
}

// Accepts a stored record only if `algorithm`'s checks pass and it holds exactly `spec`.
Result<void> holds_any_spec(const AlgorithmEntry& algorithm, const AnySpec& spec,
                            const BuildRecordView& r) {
  if (auto ok = algorithm.check_record(r); !ok) return ok;
  if (r.algorithm != spec.algorithm || !std::ranges::equal(r.spec, spec.fields))
    return fail(ErrorCode::corrupt, "the entry holds another spec");
  return {};
}

// The registry entry of a spec whose fields decode. Error invalid_argument.
Result<const AlgorithmEntry*> algorithm_of(const AnySpec& spec) {
  const auto* algorithm = find_algorithm(spec.algorithm);
  if (algorithm == nullptr) return fail(ErrorCode::invalid_argument, "unknown algorithm");
  if (auto fields = algorithm->to_text(spec.fields); !fields)
    return fail(ErrorCode::invalid_argument, fields.error().message);
  return algorithm;
}

}  // namespace

Result<PrefetchReport> AlgorithmCache::Impl::prefetch(std::span<const AnySpec> specs,
                                                      std::span<const std::uint32_t> ccs) {
  std::vector<const AlgorithmEntry*> algorithms;
  algorithms.reserve(specs.size());
  for (const AnySpec& spec : specs) {
    CCCL_CACHE_TRY(const AlgorithmEntry* algorithm, algorithm_of(spec));
    algorithms.push_back(algorithm);
  }
  PrefetchReport report;
  std::vector<bool> done(specs.size(), false);
  std::optional<std::pair<CacheKey, Error>> rejected;  // the first unusable entry
  // Batch 0: the exact CC; batch 1: every lower CC of `ccs` for the specs still missing.
  for (std::size_t batch = 0; batch < 2 && tiers; ++batch) {
    std::vector<std::size_t> spec_of_key;
    std::vector<CacheKey> keys;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (done[i]) continue;
      for (std::size_t c = batch == 0 ? 0 : 1; c < (batch == 0 ? 1 : ccs.size()); ++c) {
        spec_of_key.push_back(i);
        keys.push_back(cache_key(specs[i], ccs[c]));
      }
    }
    if (keys.empty()) break;
    auto served = tiers->fetch_many(keys, [&](std::size_t k, std::span<const std::byte> payload) {
      const std::size_t i = spec_of_key[k];
      auto ok = check_view(payload, keys[k], [&](const BuildRecordView& r) {
        return holds_any_spec(*algorithms[i], specs[i], r);
      });
      if (!ok && !rejected) rejected.emplace(keys[k], ok.error());
      return ok.has_value();
    });
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const std::size_t i = spec_of_key[k];
      if (!served[k] || done[i]) continue;
      done[i] = true;
      if (*served[k] == 0 && tiers->local()) {
        ++report.local;
      } else {
        ++report.fetched;
        prefetched.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
  if (rejected)
    warn_once(warned_corrupt, "unusable entry " + rejected->first.to_string() + ": " +
                                  rejected->second.describe());
  report.missing = specs.size() - report.local - report.fetched;
  return report;
}

AlgorithmCache::AlgorithmCache(std::shared_ptr<Store> store)
    : AlgorithmCache(store ? TierStack::over(std::move(store)) : nullptr) {}

AlgorithmCache::AlgorithmCache(std::shared_ptr<TierStack> tiers) : impl_(std::make_unique<Impl>()) {
  if (const Config* config = tiers ? tiers->config() : nullptr)
    impl_->cc_fallback = config->cc_fallback;
  impl_->tiers = std::move(tiers);
  impl_->state.store(new ProcessState(detail::fork_generation()), std::memory_order_release);
  // Per-process set-up, done here once rather than inside the first request: the
  // toolchain fingerprints the keys cover, and the driver's entry points (when there
  // is no driver this fails fast and requests that need a GPU report it).
  for (const auto& a : algorithms())
    impl_->toolchains.emplace(a.id, Toolchain::current().fingerprint(a.name));
  (void)detail::driver();
}

AlgorithmCache::~AlgorithmCache() = default;

template <class Spec>
Result<std::shared_ptr<const ExecutableOf<Spec>>> AlgorithmCache::acquire(const Spec& spec,
                                                                         int device) {
  using A = typename Spec::Algorithm;
  using Exe = typename A::Executable;
  auto& bound = impl_->current().bound_map<A>();
  BoundKey<Spec> bound_key{spec, device};
  {
    std::shared_lock lock(bound.mutex);
    if (auto it = bound.map.find(bound_key); it != bound.map.end()) {
      impl_->memory_hits.fetch_add(1, std::memory_order_relaxed);
      return it->second;
    }
  }
  if (auto valid = spec.validate(); !valid) return tl::unexpected(valid.error());
  auto cc = device_cc(device);  // queried once per process and device
  if (!cc) return tl::unexpected(cc.error());
  const CacheKey key = cache_key(spec, *cc);

  auto keep = [&](Result<Exe> exe) -> Bound {
    if (!exe) return tl::unexpected(exe.error());
    auto shared = std::make_shared<const Exe>(std::move(*exe));
    std::unique_lock lock(bound.mutex);
    auto [it, inserted] = bound.map.try_emplace(bound_key, std::move(shared));
    return std::static_pointer_cast<const void>(it->second);
  };
  Bound result = impl_->single_flight(&ProcessState::binding, std::pair{key, device}, [&]() -> Bound {
    {  // bound by a flight that ended while this one waited for the lock
      std::shared_lock lock(bound.mutex);
      if (auto it = bound.map.find(bound_key); it != bound.map.end())
        return std::static_pointer_cast<const void>(it->second);
    }
    if (impl_->tiers) {  // the local tier, or prefetch's entries not yet committed there
      std::optional<Result<Exe>> exe;
      auto hit = impl_->tiers->get_local(key, [&](std::span<const std::byte> payload) {
        auto view = deserialize_view<A>(payload, *cc);
        if (view && view->spec == spec && view->record.toolchain == impl_->toolchain(A::Spec::kAlgorithm))
          exe.emplace(A::bind(*view, device));
      });
      if (hit && *hit && exe) {
        impl_->store_hits.fetch_add(1, std::memory_order_relaxed);
        return keep(std::move(*exe));
      }
    }
    // cc_fallback: the exact entry in every tier first, then a lower minor's of the
    // device's major, nearest first (a bind that refuses it tries the next).
    if (const auto ccs = serving_ccs(*cc, impl_->tiers && impl_->cc_fallback); ccs.size() > 1) {
      for (std::uint32_t serving : ccs) {
        auto record = impl_->load(cache_key(spec, serving),
                                  [&](const BuildRecordView& r) { return holds_spec<A>(r, spec); });
        if (!record) continue;
        auto view = typed_view<A>(view_of(*record));
        if (!view) continue;
        auto exe = A::bind(*view, device);
        if (serving == *cc || exe) {
          if (serving != *cc) {
            impl_->fallback_hits.fetch_add(1, std::memory_order_relaxed);
            impl_->tiers->count(Counter::cc_fallback_serves);  // persisted for `stats`
          }
          return keep(std::move(exe));
        }
      }
    }
    // Absent, unreadable or unusable in every tier: obtain() looks again under the
    // build's single-flight and its claim, warns, and builds.
    auto obtained = impl_->obtain(
        key, spec_text(spec), [&](const BuildRecordView& r) { return holds_spec<A>(r, spec); },
        [&]() -> Result<BuildRecord> {
          auto built = A::build(spec, *cc);
          if (!built) return tl::unexpected(built.error());
          return std::move(built->record);
        });
    if (!obtained->record) return tl::unexpected(obtained->record.error());
    auto view = typed_view<A>(view_of(*obtained->record));
    if (!view) return tl::unexpected(view.error());
    return keep(A::bind(*view, device));
  });
  if (!result) return tl::unexpected(result.error());
  return std::static_pointer_cast<const Exe>(*result);
}

template <class Spec>
Result<bool> AlgorithmCache::prewarm(const Spec& spec, std::uint32_t cc) {
  return prewarm(to_any(spec), cc);
}

Result<bool> AlgorithmCache::prewarm(const AnySpec& spec, std::uint32_t cc) {
  CCCL_CACHE_TRY(const AlgorithmEntry* algorithm, algorithm_of(spec));
  const CacheKey key = cache_key(spec, cc);
  auto obtained = impl_->obtain(
      key, spec_text(spec),
      [&](const BuildRecordView& r) { return holds_any_spec(*algorithm, spec, r); },
      [&] { return algorithm->build(spec.fields, cc); });
  if (!obtained->record) return tl::unexpected(obtained->record.error());
  return obtained->built;
}

Result<PrefetchReport> AlgorithmCache::prefetch(std::span<const AnySpec> specs, int device) {
  auto cc = device_cc(device);  // queried once per process and device
  if (!cc) return tl::unexpected(cc.error());
  const auto ccs = serving_ccs(*cc, impl_->tiers && impl_->cc_fallback);
  return impl_->prefetch(specs, ccs);
}

Result<PrefetchReport> AlgorithmCache::prefetch_for_cc(std::span<const AnySpec> specs,
                                                       std::uint32_t cc) {
  return impl_->prefetch(specs, std::span(&cc, 1));
}

void detail::AlgorithmCacheAccess::hold_flight(AlgorithmCache& cache, const AnySpec& spec,
                                               std::uint32_t cc) {
  ProcessState& ps = cache.impl_->current();
  std::lock_guard lock(ps.flight_mutex);
  auto& promise = ps.held_for_test.emplace_back();
  ps.building.insert_or_assign(cache_key(spec, cc), promise.get_future().share());
}

bool detail::AlgorithmCacheAccess::in_flight(AlgorithmCache& cache, const AnySpec& spec,
                                             std::uint32_t cc) {
  ProcessState& ps = cache.impl_->current();
  std::lock_guard lock(ps.flight_mutex);
  return ps.building.contains(cache_key(spec, cc));
}

Result<PrefetchReport> detail::AlgorithmCacheAccess::prefetch(AlgorithmCache& cache,
                                                             std::span<const AnySpec> specs,
                                                             std::span<const std::uint32_t> ccs) {
  return cache.impl_->prefetch(specs, ccs);
}

AcquireStats AlgorithmCache::stats() const {
  return AcquireStats{impl_->builds.load(),      impl_->store_hits.load(),
                      impl_->memory_hits.load(), impl_->claim_waits.load(),
                      impl_->fallback_hits.load(), impl_->prefetched.load()};
}

#define CCCL_CACHE_INSTANTIATE(A)                                                             \
  template Result<std::shared_ptr<const ExecutableOf<A::Spec>>> AlgorithmCache::acquire(        \
      const A::Spec&, int);                                                                     \
  template Result<bool> AlgorithmCache::prewarm(const A::Spec&, std::uint32_t);
CCCL_CACHE_ALGORITHMS(CCCL_CACHE_INSTANTIATE)
#undef CCCL_CACHE_INSTANTIATE

}  // namespace cccl_cache::algos
