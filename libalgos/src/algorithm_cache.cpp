// AlgorithmCache: spec + device -> bound executable, through the store.
// Layers: bound executables of this process (shared lock, no allocation on a hit),
// then the store (get_payload_with: the entry is verified, read as a view and bound
// while the read transaction holds it, so its cubin goes from the store's map to the
// driver uncopied), then a build (NVRTC). Single-flight: per (key, device) for a whole
// acquire (load or build, then bind), per key for the build it may share with prewarm.
// The generic code is type-erased below and typed in acquire/prewarm, which are
// instantiated for every algorithm of the registry.
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

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/log.hpp"
#include "cuda_driver.hpp"

namespace cccl_cache::algos {

namespace {

// Hash of a spec from its fields: the in-process key is the spec itself (compared
// field by field), never its encoding, so that a repeat needs no encoding or hashing
// of canonical bytes.
struct FieldHasher {
  std::size_t h = 0;
  void mix(std::size_t v) { h = h * 31 + v; }
  void operator()(const Field&, ScalarType v) { mix(static_cast<std::size_t>(v)); }
  void operator()(const Field&, bool v) { mix(v ? 1 : 2); }
  void operator()(const Field&, std::uint32_t v) { mix(v); }
  void operator()(const Field&, const Operator& v) {
    mix(static_cast<std::size_t>(v.kind));
    if (v.kind == OpKind::custom) {
      mix(std::hash<std::string>{}(v.name));
      mix(std::hash<std::string>{}(v.source));
    }
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

}  // namespace

struct AlgorithmCache::Impl {
  std::shared_ptr<Store> store;

  std::mutex maps_mutex;
  std::map<AlgorithmId, std::shared_ptr<void>> bound_maps;  // BoundMap<A> per algorithm

  std::mutex flight_mutex;
  std::map<CacheKey, std::shared_future<std::shared_ptr<const Obtained>>> building;
  std::map<std::pair<CacheKey, int>, std::shared_future<Bound>> binding;

  std::atomic<std::uint64_t> builds{0}, store_hits{0}, memory_hits{0};
  std::atomic<bool> warned_store_get{false}, warned_corrupt{false}, warned_store_put{false};

  void warn_once(std::atomic<bool>& flag, const std::string& what) {
    if (!flag.exchange(true))
      logger()->warn("algorithm cache: {} (further such warnings suppressed)", what);
  }

  template <class A>
  BoundMap<A>& bound_map() {
    std::lock_guard lock(maps_mutex);
    auto& slot = bound_maps[A::Spec::kAlgorithm];
    if (!slot) slot = std::make_shared<BoundMap<A>>();
    return *static_cast<BoundMap<A>*>(slot.get());
  }

  // Runs `work` once for `key` at a time; concurrent callers wait for its result.
  template <class K, class V, class Work>
  V single_flight(std::map<K, std::shared_future<V>>& flights, const K& key, Work&& work) {
    std::promise<V> promise;
    {
      std::unique_lock lock(flight_mutex);
      if (auto it = flights.find(key); it != flights.end()) {
        auto future = it->second;
        lock.unlock();
        return future.get();
      }
      flights.emplace(key, promise.get_future().share());
    }
    V value = work();
    {
      std::lock_guard lock(flight_mutex);
      flights.erase(key);
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
    return single_flight(building, key, [&] { return load_or_build(key, summary, accept, build); });
  }

  std::shared_ptr<const Obtained> load_or_build(
      const CacheKey& key, const std::string& summary,
      const std::function<Result<void>(const BuildRecordView&)>& accept,
      const std::function<Result<BuildRecord>()>& build) {
    auto out = std::make_shared<Obtained>();
    if (store) {
      std::optional<Result<BuildRecord>> loaded;
      auto hit = store->get_payload_with(key, [&](std::span<const std::byte> payload) {
        auto record = parse_record(payload, key.cc);
        if (!record) {
          loaded.emplace(tl::unexpected(record.error()));
        } else if (auto ok = accept(*record); !ok) {
          loaded.emplace(tl::unexpected(ok.error()));
        } else {
          loaded.emplace(to_owned(*record));
        }
      });
      if (!hit) {
        warn_once(warned_store_get, "store read failed, building instead: " + hit.error().describe());
      } else if (*hit && loaded) {
        if (*loaded) {
          store_hits.fetch_add(1, std::memory_order_relaxed);
          out->record = std::move(*loaded);
          return out;
        }
        warn_once(warned_corrupt, "unusable store entry " + key.to_string() +
                                      ", rebuilding: " + loaded->error().describe());
      }
    }
    auto built = build();
    builds.fetch_add(1, std::memory_order_relaxed);
    out->built = true;
    if (built && store && !store->read_only()) {
      EntryMeta meta;
      meta.algorithm = std::string(algorithm_name(built->algorithm));
      meta.summary = summary;
      meta.toolchain = built->toolchain;
      meta.payload_format = kBuildFormatVersion;
      if (auto put = store->put(key, meta, serialize_record(*built)); !put)
        warn_once(warned_store_put, "store write failed (the build is kept in memory only): " +
                                        put.error().describe());
    }
    out->record = std::move(built);
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

}  // namespace

AlgorithmCache::AlgorithmCache(std::shared_ptr<Store> store) : impl_(std::make_unique<Impl>()) {
  impl_->store = std::move(store);
  // Per-process set-up, done here once rather than inside the first request: the
  // toolchain fingerprint every key covers, and the driver's entry points (when there
  // is no driver this fails fast and requests that need a GPU report it).
  (void)Toolchain::current();
  (void)detail::driver();
}

AlgorithmCache::~AlgorithmCache() = default;

template <class Spec>
Result<std::shared_ptr<const ExecutableOf<Spec>>> AlgorithmCache::acquire(const Spec& spec,
                                                                         int device) {
  using A = typename Spec::Algorithm;
  using Exe = typename A::Executable;
  auto& bound = impl_->bound_map<A>();
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
  Bound result = impl_->single_flight(impl_->binding, std::pair{key, device}, [&]() -> Bound {
    {  // bound by a flight that ended while this one waited for the lock
      std::shared_lock lock(bound.mutex);
      if (auto it = bound.map.find(bound_key); it != bound.map.end())
        return std::static_pointer_cast<const void>(it->second);
    }
    if (impl_->store) {
      std::optional<Result<Exe>> exe;
      auto hit = impl_->store->get_payload_with(key, [&](std::span<const std::byte> payload) {
        auto view = deserialize_view<A>(payload, *cc);
        if (view && view->spec == spec) exe.emplace(A::bind(*view, device));
      });
      if (hit && *hit && exe) {
        impl_->store_hits.fetch_add(1, std::memory_order_relaxed);
        return keep(std::move(*exe));
      }
    }
    // Absent, unreadable or unusable in the store: obtain() re-reads it under the
    // build's single-flight, warns, and builds.
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
  const auto* algorithm = find_algorithm(spec.algorithm);
  if (algorithm == nullptr) return fail(ErrorCode::invalid_argument, "unknown algorithm");
  if (auto fields = algorithm->to_text(spec.fields); !fields)
    return fail(ErrorCode::invalid_argument, fields.error().message);
  const CacheKey key = cache_key(spec, cc);
  auto obtained = impl_->obtain(
      key, spec_text(spec),
      [&](const BuildRecordView& r) -> Result<void> {
        if (auto ok = algorithm->check_record(r); !ok) return ok;
        if (r.algorithm != spec.algorithm || !std::ranges::equal(r.spec, spec.fields))
          return fail(ErrorCode::corrupt, "the entry holds another spec");
        return {};
      },
      [&] { return algorithm->build(spec.fields, cc); });
  if (!obtained->record) return tl::unexpected(obtained->record.error());
  return obtained->built;
}

AcquireStats AlgorithmCache::stats() const {
  return AcquireStats{impl_->builds.load(), impl_->store_hits.load(), impl_->memory_hits.load()};
}

#define CCCL_CACHE_INSTANTIATE(A)                                                             \
  template Result<std::shared_ptr<const ExecutableOf<A::Spec>>> AlgorithmCache::acquire(        \
      const A::Spec&, int);                                                                     \
  template Result<bool> AlgorithmCache::prewarm(const A::Spec&, std::uint32_t);
CCCL_CACHE_ALGORITHMS(CCCL_CACHE_INSTANTIATE)
#undef CCCL_CACHE_INSTANTIATE

}  // namespace cccl_cache::algos
