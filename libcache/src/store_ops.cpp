#include "store_ops.hpp"

#include <algorithm>
#include <cstring>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/log.hpp"

namespace cccl_cache::detail {

EntryMeta meta_of(const EnvelopeView& view) {
  EntryMeta meta;
  meta.algorithm = view.fields.algorithm;
  meta.summary = view.fields.summary;
  meta.toolchain = view.fields.toolchain;
  meta.payload_format = view.fields.payload_format;
  meta.created_unix = view.fields.created_unix;
  meta.payload_size = view.payload.size();
  return meta;
}
namespace {

std::array<std::byte, 4> counter_key(std::uint32_t id) {
  return {std::byte(id >> 24), std::byte(id >> 16), std::byte(id >> 8), std::byte(id)};
}

Result<void> check(int rc, std::string_view what) {
  if (rc == MDB_SUCCESS) return {};
  return tl::unexpected(lmdb::error(rc, what));
}

}  // namespace

std::optional<UsageRecord> decode_usage(const MDB_val& v) {
  if (v.mv_size != sizeof(UsageRecord)) return std::nullopt;
  UsageRecord r;
  std::memcpy(&r, v.mv_data, sizeof r);
  return r;
}

Result<std::uint64_t> read_counter(MDB_txn* txn, MDB_dbi counters, std::uint32_t id) {
  auto k = counter_key(id);
  MDB_val key = lmdb::val(k), v{};
  int rc = mdb_get(txn, counters, &key, &v);
  if (rc == MDB_NOTFOUND) return 0;
  if (rc != MDB_SUCCESS) return tl::unexpected(lmdb::error(rc, "read counter"));
  std::uint64_t out = 0;
  if (v.mv_size == sizeof out) std::memcpy(&out, v.mv_data, sizeof out);
  return out;
}

Result<void> add_counter(lmdb::WriteTxn& txn, MDB_dbi counters, std::uint32_t id,
                         std::int64_t delta) {
  if (delta == 0) return {};
  auto cur = read_counter(txn.get(), counters, id);
  if (!cur) return tl::unexpected(cur.error());
  std::uint64_t next = delta >= 0 ? *cur + static_cast<std::uint64_t>(delta)
                                  : *cur - std::min(*cur, static_cast<std::uint64_t>(-delta));
  auto k = counter_key(id);
  MDB_val v{sizeof next, &next};
  return check(txn.put(counters, k, v), "update counter");
}

Result<std::string_view> read_signature(MDB_txn* txn, const SharedEnv& env,
                                        std::span<const std::byte> key) {
  if (!env.has_signatures()) return std::string_view();
  MDB_val k = lmdb::val(key), v{};
  int rc = mdb_get(txn, env.signatures(), &k, &v);
  if (rc == MDB_NOTFOUND) return std::string_view();
  if (rc != MDB_SUCCESS) return tl::unexpected(lmdb::error(rc, "read signature"));
  return std::string_view(static_cast<const char*>(v.mv_data), v.mv_size);
}

Result<void> write_signature(lmdb::WriteTxn& txn, const SharedEnv& env,
                             std::span<const std::byte> key, std::string_view signature) {
  if (!env.has_signatures()) {
    if (signature.empty()) return {};
    return fail(ErrorCode::read_only, "the store has no signatures database");
  }
  if (signature.empty()) {
    int rc = txn.del(env.signatures(), key);
    return rc == MDB_NOTFOUND ? Result<void>{} : check(rc, "remove signature");
  }
  MDB_val v{signature.size(), const_cast<char*>(signature.data())};
  return check(txn.put(env.signatures(), key, v), "store signature");
}

Result<std::optional<std::uint64_t>> remove_entry(lmdb::WriteTxn& txn, const SharedEnv& env,
                                                  const CacheKey& key) {
  const auto k = key.encode();
  MDB_val u{};
  std::uint64_t size = 0;
  int rc = txn.get(env.usage(), k, u);
  if (rc == MDB_SUCCESS) {
    if (auto rec = decode_usage(u)) size = rec->payload_size;
    if (auto r = check(txn.del(env.usage(), k), "remove usage record"); !r)
      return tl::unexpected(r.error());
  } else if (rc != MDB_NOTFOUND) {
    return tl::unexpected(lmdb::error(rc, "read usage record"));
  }
  if (auto r = write_signature(txn, env, k, {}); !r) return tl::unexpected(r.error());
  rc = txn.del(env.entries(), k);
  if (rc == MDB_NOTFOUND) return std::optional<std::uint64_t>{};
  if (rc != MDB_SUCCESS) return tl::unexpected(lmdb::error(rc, "remove entry"));
  if (auto r =
          add_counter(txn, env.counters(), kLiveBytesCounter, -static_cast<std::int64_t>(size));
      !r)
    return tl::unexpected(r.error());
  return std::optional<std::uint64_t>{size};
}

Result<void> write_batch(lmdb::WriteTxn& txn, const SharedEnv& env, const PendingBatch& batch) {
  for (const auto& [key, touch] : batch.touches) {
    const auto k = key.encode();
    MDB_val u{};
    int rc = txn.get(env.usage(), k, u);
    if (rc == MDB_NOTFOUND) continue;  // removed since the hit
    if (rc != MDB_SUCCESS) return tl::unexpected(lmdb::error(rc, "read usage record"));
    auto rec = decode_usage(u);
    if (!rec) continue;
    rec->last_used_us = std::max(rec->last_used_us, touch.last_used);
    rec->hits += touch.hits;
    MDB_val v{sizeof *rec, &*rec};
    if (auto r = check(txn.put(env.usage(), k, v), "update usage record"); !r) return r;
  }
  if (auto r =
          add_counter(txn, env.counters(), std::uint32_t(Counter::hits), std::int64_t(batch.hits));
      !r)
    return r;
  for (std::uint32_t i = 0; i < batch.events.size(); ++i)
    if (auto r = add_counter(txn, env.counters(), kFirstEventCounter + i,
                             std::int64_t(batch.events[i]));
        !r)
      return r;
  return add_counter(txn, env.counters(), std::uint32_t(Counter::misses),
                     std::int64_t(batch.misses));
}

PendingBatch take_pending(SharedEnv& env) {
  std::lock_guard lock(env.pending_mu);
  PendingBatch out;
  std::swap(out.touches, env.pending.touches);
  std::swap(out.hits, env.pending.hits);
  std::swap(out.misses, env.pending.misses);
  std::swap(out.events, env.pending.events);
  env.last_flush = std::chrono::steady_clock::now();
  return out;
}

void restore_pending(SharedEnv& env, PendingBatch&& batch) {
  std::lock_guard lock(env.pending_mu);
  for (auto& [key, t] : batch.touches) {
    Touch& cur = env.pending.touches[key];
    cur.last_used = std::max(cur.last_used, t.last_used);
    cur.hits += t.hits;
  }
  env.pending.hits += batch.hits;
  env.pending.misses += batch.misses;
  for (std::size_t i = 0; i < batch.events.size(); ++i) env.pending.events[i] += batch.events[i];
}

Result<std::vector<EntryInfo>> list_entries(MDB_txn* txn, const SharedEnv& env) {
  std::vector<EntryInfo> out;
  int rc = 0;
  auto cursor = lmdb::Cursor::open(txn, env.entries(), rc);
  if (!cursor) return tl::unexpected(lmdb::error(rc, "open cursor"));
  MDB_val k{}, v{};
  for (rc = cursor->next(k, v, MDB_FIRST); rc == MDB_SUCCESS; rc = cursor->next(k, v)) {
    auto key = CacheKey::decode(lmdb::bytes(k));
    if (!key) continue;  // not ours
    EntryInfo info{*key, {}, false};
    if (auto env_view = decode_envelope(lmdb::bytes(v), /*verify_checksum=*/false)) {
      info.meta = meta_of(*env_view);
    } else {
      info.malformed = true;
    }
    MDB_val u{};
    auto ek = key->encode();
    MDB_val kk = lmdb::val(ek);
    if (mdb_get(txn, env.usage(), &kk, &u) == MDB_SUCCESS)
      if (auto rec = decode_usage(u)) {
        info.last_used_us = rec->last_used_us;
        info.meta.last_used_unix = rec->last_used_us / 1'000'000;
        info.meta.hits = rec->hits;
        if (info.malformed) info.meta.payload_size = rec->payload_size;
      }
    out.push_back(std::move(info));
  }
  if (rc != MDB_NOTFOUND) return tl::unexpected(lmdb::error(rc, "iterate entries"));
  return out;
}

Result<std::uint64_t> trim_lru(lmdb::WriteTxn& txn, const SharedEnv& env, std::uint64_t budget,
                               const std::optional<CacheKey>& keep, bool dry_run,
                               std::vector<EvictReport::Item>* removed) {
  auto live = read_counter(txn.get(), env.counters(), kLiveBytesCounter);
  if (!live) return tl::unexpected(live.error());
  if (*live <= budget) return 0;
  // Candidates come from the small usage database alone; payloads are not touched.
  struct Candidate {
    std::int64_t last_used_us;
    CacheKey key;
    std::uint64_t size;
  };
  std::vector<Candidate> candidates;
  {
    int rc = 0;
    auto cursor = lmdb::Cursor::open(txn.get(), env.usage(), rc);
    if (!cursor) return tl::unexpected(lmdb::error(rc, "open cursor"));
    MDB_val k{}, v{};
    for (rc = cursor->next(k, v, MDB_FIRST); rc == MDB_SUCCESS; rc = cursor->next(k, v)) {
      auto key = CacheKey::decode(lmdb::bytes(k));
      auto rec = decode_usage(v);
      if (key && rec && !(keep && *key == *keep))
        candidates.push_back({rec->last_used_us, *key, rec->payload_size});
    }
    if (rc != MDB_NOTFOUND) return tl::unexpected(lmdb::error(rc, "iterate usage records"));
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const Candidate& a, const Candidate& b) { return a.last_used_us < b.last_used_us; });
  std::uint64_t remaining = *live, freed = 0, count = 0;
  for (const Candidate& c : candidates) {
    if (remaining <= budget) break;
    if (removed) {  // the report wants metadata: read it before the entry goes
      EvictReport::Item item{c.key, {}, "least recently used (over budget)"};
      MDB_val v{};
      if (txn.get(env.entries(), c.key.encode(), v) == MDB_SUCCESS)
        if (auto view = decode_envelope(lmdb::bytes(v), /*verify_checksum=*/false))
          item.meta = meta_of(*view);
      item.meta.last_used_unix = c.last_used_us / 1'000'000;
      item.meta.payload_size = c.size;
      removed->push_back(std::move(item));
    }
    std::uint64_t size = c.size;
    if (!dry_run) {
      auto r = remove_entry(txn, env, c.key);
      if (!r) return tl::unexpected(r.error());
      size = r->value_or(0);
    }
    remaining -= std::min(remaining, size);
    freed += size;
    ++count;
  }
  if (!dry_run) {
    if (auto r = add_counter(txn, env.counters(), std::uint32_t(Counter::evictions),
                             std::int64_t(count));
        !r)
      return tl::unexpected(r.error());
    if (auto r = add_counter(txn, env.counters(), std::uint32_t(Counter::bytes_evicted),
                             std::int64_t(freed));
        !r)
      return tl::unexpected(r.error());
  }
  return freed;
}

Result<bool> low_on_map(SharedEnv& env) {
  MDB_envinfo info{};
  MDB_stat st{};
  mdb_env_info(env.get(), &info);
  if (int rc = mdb_env_stat(env.get(), &st); rc != MDB_SUCCESS)
    return tl::unexpected(lmdb::error(rc, "stat environment"));
  auto txn = env.begin_read();
  if (!txn) return tl::unexpected(txn.error());
  // The free list (database 0): each value is a page list whose first word is its length.
  std::uint64_t free_pages = 0;
  int rc = 0;
  auto cursor = lmdb::Cursor::open(txn->get(), 0, rc);
  if (!cursor) return tl::unexpected(lmdb::error(rc, "open free-list cursor"));
  MDB_val k{}, v{};
  for (rc = cursor->next(k, v, MDB_FIRST); rc == MDB_SUCCESS; rc = cursor->next(k, v)) {
    std::size_t n = 0;
    if (v.mv_size >= sizeof n) std::memcpy(&n, v.mv_data, sizeof n);
    free_pages += n;
  }
  if (rc != MDB_NOTFOUND) return tl::unexpected(lmdb::error(rc, "read the free list"));
  const std::uint64_t pages = info.me_mapsize / st.ms_psize;
  const std::uint64_t unused = pages > info.me_last_pgno + 1 ? pages - info.me_last_pgno - 1 : 0;
  return unused + free_pages < pages / 8;
}

Result<std::uint64_t> make_room(SharedEnv& env) {
  std::uint64_t live = 0;
  auto freed = env.write([&](lmdb::WriteTxn& txn) -> Result<std::uint64_t> {
    auto l = read_counter(txn.get(), env.counters(), kLiveBytesCounter);
    if (!l) return tl::unexpected(l.error());
    live = *l;
    return trim_lru(txn, env, live - live / 4, std::nullopt, false, nullptr);
  });
  if (freed && *freed > 0)
    logger()->warn(
        "cache map reached max_map_size ({} bytes) with {} live bytes; evicted {} bytes of least "
        "recently used entries to make room (a reader holding an old snapshot, or payloads "
        "just over a page size, waste map space)",
        env.max_map_size(), live, *freed);
  return freed;
}

Result<void> at_map_ceiling(SharedEnv& env, std::uint64_t entry_size, Result<void> r,
                            const std::function<Result<void>()>& retry) {
  const auto at_ceiling = [&] { return env.map_size() >= env.max_map_size(); };
  if (r) {
    if (at_ceiling() && !env.pinning_reader())
      if (auto low = low_on_map(env); low && *low) (void)make_room(env);
    return r;
  }
  for (int round = 0; round < 3 && !r && r.error().code == ErrorCode::storage_full &&
                      at_ceiling() && entry_size <= env.max_map_size() / 4;
       ++round) {
    if (auto pin = env.pinning_reader())  // evicting would free nothing it pins
      return fail(ErrorCode::storage_full,
                  r.error().message + "; a reader (" + *pin +
                      ") keeps the space of replaced entries in use until it ends");
    auto freed = make_room(env);
    if (!freed || *freed == 0) break;
    r = retry();
  }
  return r;
}

}  // namespace cccl_cache::detail
