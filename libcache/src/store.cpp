#include "cccl_cache/cache/store.hpp"

#include <chrono>
#include <cstring>
#include <vector>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/log.hpp"
#include "log_internal.hpp"
#include "store_impl.hpp"
#include "store_ops.hpp"

namespace cccl_cache {
using detail::SharedEnv;

std::int64_t now_us() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

// Longest signature text put() keeps (a real one is under 200 bytes).
constexpr std::size_t kMaxSignatureBytes = 1024;

// The field of persisted counter `id` (1 .. kLastCounter).
std::uint64_t* counter_field(StoreStats& s, std::uint32_t id) {
  std::uint64_t* fields[] = {nullptr,          &s.hits,          &s.misses,
                             &s.puts,          &s.evictions,     &s.corrupt,
                             &s.bytes_written, &s.bytes_evicted, &s.quarantined,
                             &s.host_claim_waits, &s.cluster_lease_waits, &s.wait_bound_builds,
                             &s.cc_fallback_serves, &s.signature_rejections, &s.put_requests};
  static_assert(std::size(fields) == kLastCounter + 1);
  return fields[id];
}

}  // namespace

std::shared_ptr<SharedEnv> Store::Impl::env() {
  std::lock_guard lock(env_mu);
  if (env_ && env_->stale()) {  // we are a fork()ed child: reopen our own environment
    auto fresh = SharedEnv::acquire(config, dir);
    if (!fresh) {
      logger()->error("cannot reopen cache {} after fork: {}", dir.path.string(),
                      fresh.error().describe());
      env_.reset();
    } else {
      env_ = *fresh;
    }
  }
  return env_;
}

void Store::Impl::on_corrupt(const std::shared_ptr<SharedEnv>& env, const CacheKey& key,
                             const Error& why) {
  if (env->first_report(key))
    logger()->warn("cache entry {} in {} is unusable ({}); {}", key.to_string(), dir.path.string(),
                   why.message, env->read_only() ? "ignoring it (read-only store)" : "dropping it");
  if (env->read_only()) {
    std::lock_guard lock(env->pending_mu);
    ++env->pending.corrupt;
    return;
  }
  auto r = env->write([&](lmdb::WriteTxn& txn) -> Result<void> {
    // Re-check inside the write txn: another process may have replaced the entry.
    MDB_val v{};
    const auto k = key.encode();
    int rc = txn.get(env->entries(), k, v);
    if (rc == MDB_NOTFOUND) return {};
    if (rc != MDB_SUCCESS) return tl::unexpected(lmdb::error(rc, "re-read corrupt entry"));
    if (decode_envelope(lmdb::bytes(v))) return {};
    if (auto rm = detail::remove_entry(txn, *env, key); !rm) return tl::unexpected(rm.error());
    return detail::add_counter(txn, env->counters(), std::uint32_t(Counter::corrupt), 1);
  });
  if (!r) logger()->warn("cannot drop corrupt entry {}: {}", key.to_string(), r.error().describe());
}

// Reads and verifies `key` in a read transaction and calls fn(txn, env, encoded key,
// envelope view) inside it: the shared path of read_with and read_payload_with.
template <class Fn>
Result<bool> Store::Impl::read_entry(const CacheKey& key, Fn&& fn) {
  auto e = env();
  if (!e || !e->has_dbs()) return false;
  std::optional<Error> bad;
  {
    auto txn = e->begin_read();
    if (!txn) return tl::unexpected(txn.error());
    const auto k = key.encode();
    MDB_val v{};
    int rc = txn->get(e->entries(), k, v);
    if (rc == MDB_NOTFOUND) return false;
    if (rc != MDB_SUCCESS) return tl::unexpected(lmdb::error(rc, "read entry"));
    // Without locks (an immutable image) nothing stops the bytes changing under the
    // checksum: verify a private copy and hand out views of it.
    std::vector<std::byte> copy;
    if (e->nolock()) {
      auto b = lmdb::bytes(v);
      copy.assign(b.begin(), b.end());
      v = lmdb::val(copy);
    }
    auto view = decode_envelope(lmdb::bytes(v));
    if (!view) {
      bad = view.error();
    } else {
      fn(*txn, *e, std::span<const std::byte>(k), *view);
      return true;
    }
  }
  if (bad->code == ErrorCode::format) {  // another format version: a miss, left for its writer
    if (e->first_report(key)) logger()->info("cache entry {}: {}", key.to_string(), bad->message);
  } else {
    on_corrupt(e, key, *bad);
  }
  return false;
}

Result<bool> Store::Impl::read_with(const CacheKey& key, const EntryFn& fn) {
  return read_signed_with(
      key, [&](const EntryMeta& meta, std::span<const std::byte> payload, std::string_view) {
        fn(meta, payload);
      });
}

Result<bool> Store::Impl::read_signed_with(const CacheKey& key, const SignedEntryFn& fn) {
  std::optional<Error> failed;
  auto hit = read_entry(key, [&](const lmdb::ReadTxn& txn, const detail::SharedEnv& e,
                                 std::span<const std::byte> k, const EnvelopeView& view) {
    EntryMeta meta = detail::meta_of(view);
    MDB_val u{};
    if (txn.get(e.usage(), k, u) == MDB_SUCCESS)
      if (auto rec = detail::decode_usage(u)) {
        meta.last_used_unix = rec->last_used_us / 1'000'000;
        meta.hits = rec->hits;
      }
    auto signature = detail::read_signature(txn.get(), e, k);
    if (!signature) {
      failed = signature.error();
      return;
    }
    // A copy: the gate parses it, then checks it (an immutable image's map may change).
    const std::string sig(*signature);
    fn(meta, view.payload, sig);  // inside the txn: the payload views the map
  });
  if (failed) return tl::unexpected(*failed);
  return hit;
}

Result<bool> Store::Impl::read_payload_with(const CacheKey& key, const PayloadFn& fn) {
  return read_entry(key,
                    [&](const lmdb::ReadTxn&, const detail::SharedEnv&, std::span<const std::byte>,
                        const EnvelopeView& view) { fn(view.payload); });
}

Result<std::optional<Entry>> Store::Impl::read(const CacheKey& key) {
  std::optional<Entry> out;
  auto hit = read_signed_with(key, [&](const EntryMeta& meta, std::span<const std::byte> payload,
                                       std::string_view signature) {
    out.emplace(Entry{key, meta, {payload.begin(), payload.end()}, std::string(signature)});
  });
  if (!hit) return tl::unexpected(hit.error());
  return out;
}

void Store::Impl::record(const std::shared_ptr<SharedEnv>& e, const CacheKey& key, bool hit) {
  if (!e) return;
  bool due = false;
  {
    std::lock_guard lock(e->pending_mu);
    if (hit)
      ++e->pending.hits;
    else
      ++e->pending.misses;
    if (hit && !e->read_only()) {  // read-only stores never write stamps: do not collect them
      auto& t = e->pending.touches[key];
      t.last_used = now_us();
      ++t.hits;
    }
    due = !e->read_only() && std::chrono::steady_clock::now() - e->last_flush >=
                                 std::chrono::seconds(config.touch_interval_s);
    if (due) e->last_flush = std::chrono::steady_clock::now();  // one thread flushes
  }
  if (due)
    if (auto r = flush(); !r)
      logger()->warn("cannot flush cache usage stamps: {}", r.error().describe());
}

Result<void> Store::Impl::flush() {
  auto e = env();
  if (!e || e->read_only() || !e->has_dbs()) return {};
  auto batch = detail::take_pending(*e);
  if (batch.empty()) return {};
  auto r = e->write([&](lmdb::WriteTxn& txn) { return detail::write_batch(txn, *e, batch); });
  if (!r) detail::restore_pending(*e, std::move(batch));
  return r;
}

Result<std::shared_ptr<Store>> Store::open(const Config& config) {
  auto impl = std::make_unique<Impl>();
  impl->config = config;
  if (!config.disabled)
    if (auto valid = config.validate(); !valid) return tl::unexpected(valid.error());
  detail::apply_log_level(config.log_level);  // the library's own logger only
  if (config.disabled) {
    impl->disabled = true;
    return std::shared_ptr<Store>(new Store(std::move(impl)));
  }
  auto dir = detail::prepare_dir(config);
  if (!dir) return tl::unexpected(dir.error());
  prepare_checksums();
  impl->dir = *dir;
  impl->read_only = !dir->writable;
  if (dir->exists && (dir->writable || dir->has_data)) {
    auto env = SharedEnv::acquire(config, *dir);
    if (!env) return tl::unexpected(env.error());
    impl->env_ = *env;
    impl->read_only = impl->read_only || (*env)->read_only();
  } else {
    logger()->info("cache {} is absent and cannot be created; every lookup will miss",
                   config.dir.string());
  }
  return std::shared_ptr<Store>(new Store(std::move(impl)));
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Store::~Store() {
  if (auto r = flush(); !r)
    logger()->warn("cannot flush cache usage stamps: {}", r.error().describe());
}

Result<std::optional<Entry>> Store::get(const CacheKey& key) {
  if (impl_->disabled) return std::optional<Entry>{};
  auto r = impl_->read(key);
  if (r) impl_->record(impl_->env(), key, r->has_value());
  return r;
}

Result<bool> Store::get_with(const CacheKey& key, const EntryFn& fn) {
  if (impl_->disabled) return false;
  auto r = impl_->read_with(key, fn);
  if (r) impl_->record(impl_->env(), key, *r);
  return r;
}

Result<bool> Store::get_payload_with(const CacheKey& key, const PayloadFn& fn) {
  if (impl_->disabled) return false;
  auto r = impl_->read_payload_with(key, fn);
  if (r) impl_->record(impl_->env(), key, *r);
  return r;
}

Result<bool> Store::get_signed_with(const CacheKey& key, const SignedEntryFn& fn) {
  if (impl_->disabled) return false;
  auto r = impl_->read_signed_with(key, fn);
  if (r) impl_->record(impl_->env(), key, *r);
  return r;
}

Result<std::optional<Entry>> Store::peek(const CacheKey& key) {
  if (impl_->disabled) return std::optional<Entry>{};
  return impl_->read(key);
}

Result<void> Store::put(const CacheKey& key, const EntryMeta& meta,
                        std::span<const std::byte> payload, std::string_view signature) {
  const PutItem item{key, &meta, payload, signature};
  return put_many(std::span(&item, 1));
}

Result<void> Store::put_many(std::span<const PutItem> items) {
  if (impl_->disabled || items.empty()) return {};
  auto e = impl_->env();
  if (impl_->read_only || !e)
    return fail(ErrorCode::read_only, "cache " + impl_->dir.path.string() + " is open read-only");
  const std::int64_t now = now_us();
  // Every item is checked before the transaction: a bad one fails the batch unwritten.
  std::vector<EnvelopeFields> fields;
  std::vector<std::size_t> sizes;
  fields.reserve(items.size());
  sizes.reserve(items.size());
  std::uint64_t total = 0;
  for (const PutItem& item : items) {
    if (item.signature.size() > kMaxSignatureBytes)
      return fail(ErrorCode::invalid_argument,
                  "signature of " + std::to_string(item.signature.size()) + " bytes (at most " +
                      std::to_string(kMaxSignatureBytes) + ")");
    const EntryMeta& meta = *item.meta;
    fields.push_back({meta.algorithm, meta.summary, meta.toolchain, meta.payload_format,
                      now / 1'000'000});
    auto size = envelope_size(fields.back(), item.payload.size());
    if (!size) return tl::unexpected(size.error());
    sizes.push_back(*size);
    total += *size;
  }
  auto batch = detail::take_pending(*e);
  auto write_one = [&](lmdb::WriteTxn& txn, std::size_t i) -> Result<void> {
    const PutItem& item = items[i];
    const auto k = item.key.encode();
    std::uint64_t old_size = 0;
    MDB_val u{};
    int rc = txn.get(e->usage(), k, u);
    if (rc == MDB_SUCCESS) {
      if (auto rec = detail::decode_usage(u)) old_size = rec->payload_size;
    } else if (rc != MDB_NOTFOUND) {
      return tl::unexpected(lmdb::error(rc, "read usage record"));
    }
    MDB_val v{sizes[i], nullptr};
    if (rc = txn.put(e->entries(), k, v, MDB_RESERVE); rc != MDB_SUCCESS)
      return tl::unexpected(lmdb::error(rc, "store entry"));
    encode_envelope({static_cast<std::byte*>(v.mv_data), sizes[i]}, fields[i], item.payload);
    detail::UsageRecord rec{now, 0, item.payload.size()};
    MDB_val uv{sizeof rec, &rec};
    if (rc = txn.put(e->usage(), k, uv); rc != MDB_SUCCESS)
      return tl::unexpected(lmdb::error(rc, "store usage record"));
    if (auto sig = detail::write_signature(txn, *e, k, item.signature); !sig) return sig;
    const auto c = e->counters();
    for (auto [id, delta] :
         {std::pair{detail::kLiveBytesCounter,
                    std::int64_t(item.payload.size()) - std::int64_t(old_size)},
          std::pair{std::uint32_t(Counter::puts), std::int64_t(1)},
          std::pair{std::uint32_t(Counter::bytes_written), std::int64_t(item.payload.size())}})
      if (auto a = detail::add_counter(txn, c, id, delta); !a) return a;
    return {};
  };
  auto write = [&](lmdb::WriteTxn& txn) -> Result<void> {
    for (std::size_t i = 0; i < items.size(); ++i)
      if (auto r = write_one(txn, i); !r) return r;
    if (auto r = detail::add_counter(txn, e->counters(), std::uint32_t(Counter::put_requests), 1); !r)
      return r;
    if (auto b = detail::write_batch(txn, *e, batch); !b) return b;
    auto trimmed =
        detail::trim_lru(txn, *e, impl_->config.max_size, items.front().key, false, nullptr);
    if (!trimmed) return tl::unexpected(trimmed.error());
    return {};
  };
  auto attempt = [&] { return e->write(write); };
  auto r = detail::at_map_ceiling(*e, total, attempt(), attempt);
  if (!r) detail::restore_pending(*e, std::move(batch));
  return r;
}

Result<bool> Store::contains(const CacheKey& key) {
  auto e = impl_->disabled ? nullptr : impl_->env();
  if (!e || !e->has_dbs()) return false;
  auto txn = e->begin_read();
  if (!txn) return tl::unexpected(txn.error());
  const auto k = key.encode();
  MDB_val v{};
  const int rc = txn->get(e->entries(), k, v);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != MDB_SUCCESS) return tl::unexpected(lmdb::error(rc, "look up entry"));
  return true;
}

Result<bool> Store::remove(const CacheKey& key) {
  if (impl_->disabled) return false;
  auto e = impl_->env();
  if (impl_->read_only || !e)
    return fail(ErrorCode::read_only, "cache " + impl_->dir.path.string() + " is open read-only");
  // Even a delete needs pages (LMDB copies the path it changes): at the map's ceiling it
  // gets the same room-making retry as a put (dead readers cleared, LRU trimmed).
  bool removed = false;
  auto attempt = [&]() -> Result<void> {
    return e->write([&](lmdb::WriteTxn& txn) -> Result<void> {
      auto r = detail::remove_entry(txn, *e, key);
      if (!r) return tl::unexpected(r.error());
      removed = r->has_value();
      return {};
    });
  };
  if (auto r = detail::at_map_ceiling(*e, 0, attempt(), attempt); !r)
    return tl::unexpected(r.error());
  return removed;
}

Result<void> Store::for_each(const std::function<bool(const CacheKey&, const EntryMeta&)>& fn) {
  auto e = impl_->disabled ? nullptr : impl_->env();
  if (!e || !e->has_dbs()) return {};
  std::unordered_map<CacheKey, detail::Touch, CacheKeyHash> pending;
  {
    std::lock_guard lock(e->pending_mu);
    pending = e->pending.touches;
  }
  auto txn = e->begin_read();
  if (!txn) return tl::unexpected(txn.error());
  auto entries = detail::list_entries(txn->get(), *e);
  if (!entries) return tl::unexpected(entries.error());
  for (auto& info : *entries) {
    if (auto it = pending.find(info.key); it != pending.end()) {
      info.meta.hits += it->second.hits;
      info.meta.last_used_unix =
          std::max(info.meta.last_used_unix, it->second.last_used / 1'000'000);
    }
    if (!fn(info.key, info.meta)) break;
  }
  return {};
}

Result<StoreStats> Store::stats() {
  StoreStats s;
  s.budget_bytes = impl_->config.max_size;
  auto e = impl_->disabled ? nullptr : impl_->env();
  if (!e) return s;
  s.map_size = e->map_size();
  {
    std::lock_guard lock(e->pending_mu);
    s.hits = e->pending.hits;
    s.misses = e->pending.misses;
    s.corrupt = e->pending.corrupt;
    for (std::size_t i = 0; i < e->pending.events.size(); ++i)
      *counter_field(s, kFirstEventCounter + std::uint32_t(i)) += e->pending.events[i];
  }
  if (!e->has_dbs()) return s;
  auto txn = e->begin_read();
  if (!txn) return tl::unexpected(txn.error());
  for (std::uint32_t id = 1; id <= kLastCounter; ++id) {
    auto v = detail::read_counter(txn->get(), e->counters(), id);
    if (!v) return tl::unexpected(v.error());
    *counter_field(s, id) += *v;
  }
  auto live = detail::read_counter(txn->get(), e->counters(), detail::kLiveBytesCounter);
  if (!live) return tl::unexpected(live.error());
  s.live_bytes = *live;
  MDB_stat st{};
  if (int rc = mdb_stat(txn->get(), e->entries(), &st); rc != MDB_SUCCESS)
    return tl::unexpected(lmdb::error(rc, "stat entries"));
  s.entries = st.ms_entries;
  if (e->has_signatures()) {
    if (int rc = mdb_stat(txn->get(), e->signatures(), &st); rc != MDB_SUCCESS)
      return tl::unexpected(lmdb::error(rc, "stat signatures"));
    s.signed_entries = st.ms_entries;
  }
  return s;
}

void Store::count(Counter counter, std::uint64_t n) {
  const auto id = static_cast<std::uint32_t>(counter);
  if (id < kFirstEventCounter || id > kLastEventCounter || n == 0) return;
  auto e = impl_->disabled ? nullptr : impl_->env();
  if (!e) return;
  bool due = false;
  {
    std::lock_guard lock(e->pending_mu);
    e->pending.events[id - kFirstEventCounter] += n;
    due = !e->read_only() && std::chrono::steady_clock::now() - e->last_flush >=
                                 std::chrono::seconds(impl_->config.touch_interval_s);
  }
  if (due)
    if (auto r = impl_->flush(); !r)
      logger()->warn("cannot flush cache counters: {}", r.error().describe());
}

Result<std::vector<CacheKey>> Store::orphan_signatures() {
  std::vector<CacheKey> out;
  auto e = impl_->disabled ? nullptr : impl_->env();
  if (!e || !e->has_dbs() || !e->has_signatures()) return out;
  auto txn = e->begin_read();
  if (!txn) return tl::unexpected(txn.error());
  int rc = 0;
  auto cursor = lmdb::Cursor::open(txn->get(), e->signatures(), rc);
  if (!cursor) return tl::unexpected(lmdb::error(rc, "open cursor"));
  MDB_val k{}, v{};
  for (rc = cursor->next(k, v, MDB_FIRST); rc == MDB_SUCCESS; rc = cursor->next(k, v)) {
    MDB_val entry{};
    int found = txn->get(e->entries(), lmdb::bytes(k), entry);
    if (found == MDB_NOTFOUND) {
      if (auto key = CacheKey::decode(lmdb::bytes(k))) out.push_back(*key);
    } else if (found != MDB_SUCCESS) {
      return tl::unexpected(lmdb::error(found, "read entry"));
    }
  }
  if (rc != MDB_NOTFOUND) return tl::unexpected(lmdb::error(rc, "list signatures"));
  return out;
}

Result<void> Store::flush() {
  if (impl_->disabled) return {};
  return impl_->flush();
}

Result<void> Store::clear() {
  if (impl_->disabled) return {};
  auto e = impl_->env();
  if (impl_->read_only || !e)
    return fail(ErrorCode::read_only, "cache " + impl_->dir.path.string() + " is open read-only");
  (void)detail::take_pending(*e);
  return e->write([&](lmdb::WriteTxn& txn) -> Result<void> {
    for (MDB_dbi dbi : {e->entries(), e->usage(), e->counters()})
      if (int rc = mdb_drop(txn.get(), dbi, 0); rc != MDB_SUCCESS)
        return tl::unexpected(lmdb::error(rc, "clear"));
    if (e->has_signatures())
      if (int rc = mdb_drop(txn.get(), e->signatures(), 0); rc != MDB_SUCCESS)
        return tl::unexpected(lmdb::error(rc, "clear signatures"));
    return {};
  });
}

const Config& Store::config() const { return impl_->config; }
bool Store::read_only() const { return impl_->read_only; }

}  // namespace cccl_cache
