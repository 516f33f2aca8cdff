// Store::evict: removal by age, compute capability, algorithm, toolchain/format
// mismatch, and least-recently-used trimming to a byte budget.
#include <algorithm>

#include "cccl_cache/cache/store.hpp"
#include "store_impl.hpp"
#include "store_ops.hpp"

namespace cccl_cache {
namespace {

bool has_filter(const EvictCriteria& c) {
  return c.older_than_s || c.cc || c.algorithm || c.toolchain_mismatch_with || c.payload_format;
}

// Why `info` matches every set filter of `c`, or nullopt when it does not.
std::optional<std::string> match(const EvictCriteria& c, const detail::EntryInfo& info,
                                 std::int64_t now_s) {
  std::string why;
  auto add = [&why](const std::string& s) { why += (why.empty() ? "" : ", ") + s; };
  if (c.older_than_s) {
    const std::int64_t last = std::max(info.meta.last_used_unix, info.meta.created_unix);
    if (now_s - last <= *c.older_than_s) return std::nullopt;
    add("unused for " + std::to_string(now_s - last) + " s");
  }
  if (c.cc) {
    if (info.key.cc != *c.cc) return std::nullopt;
    add("cc " + std::to_string(*c.cc));
  }
  if (c.algorithm) {
    if (info.meta.algorithm != *c.algorithm) return std::nullopt;
    add("algorithm " + *c.algorithm);
  }
  if (c.toolchain_mismatch_with || c.payload_format) {
    bool tc = false;
    if (c.toolchain_mismatch_with) {
      const auto it = c.toolchain_mismatch_with->find(info.meta.algorithm);
      tc = it == c.toolchain_mismatch_with->end() || info.meta.toolchain != it->second;
    }
    const bool pf = c.payload_format && info.meta.payload_format != *c.payload_format;
    if (!tc && !pf) return std::nullopt;
    add(tc ? "toolchain mismatch" : "payload format mismatch");
  }
  return why;
}

}  // namespace

Result<EvictReport> Store::evict(const EvictCriteria& c) {
  if (!has_filter(c) && !c.max_live_bytes)
    return fail(ErrorCode::invalid_argument,
                "evict needs at least one criterion (use clear() to remove everything)");
  EvictReport report;
  if (impl_->disabled) return report;
  auto e = impl_->env();
  if (!e || !e->has_dbs()) return report;
  if (impl_->read_only && !c.dry_run)
    return fail(ErrorCode::read_only, "cache " + impl_->dir.path.string() + " is open read-only");
  auto run = [&](MDB_txn* raw, lmdb::WriteTxn* txn) -> Result<void> {
    report = {};
    if (has_filter(c)) {
      auto entries = detail::list_entries(raw, *e);
      if (!entries) return tl::unexpected(entries.error());
      const std::int64_t now_s = now_us() / 1'000'000;
      std::uint64_t count = 0;
      for (const auto& info : *entries) {
        auto why = match(c, info, now_s);
        if (!why) continue;
        std::uint64_t size = info.meta.payload_size;
        if (txn) {
          auto r = detail::remove_entry(*txn, *e, info.key);
          if (!r) return tl::unexpected(r.error());
          size = r->value_or(0);
        }
        report.bytes_freed += size;
        ++count;
        report.removed.push_back({info.key, info.meta, *why});
      }
      if (txn) {
        if (auto r = detail::add_counter(*txn, e->counters(), std::uint32_t(Counter::evictions),
                                         std::int64_t(count));
            !r)
          return r;
        if (auto r = detail::add_counter(*txn, e->counters(), std::uint32_t(Counter::bytes_evicted),
                                         std::int64_t(report.bytes_freed));
            !r)
          return r;
      }
    }
    if (c.max_live_bytes && txn) {
      auto freed =
          detail::trim_lru(*txn, *e, *c.max_live_bytes, std::nullopt, false, &report.removed);
      if (!freed) return tl::unexpected(freed.error());
      report.bytes_freed += *freed;
    }
    return {};
  };
  if (c.dry_run) {
    // A dry run needs no write lock for filters; LRU trimming is simulated in a write
    // txn that is aborted (so filtered removals are taken into account first).
    if (!c.max_live_bytes || impl_->read_only) {
      auto txn = e->begin_read();
      if (!txn) return tl::unexpected(txn.error());
      if (auto r = run(txn->get(), nullptr); !r) return tl::unexpected(r.error());
      return report;
    }
    auto txn = e->begin_write();
    if (!txn) return tl::unexpected(txn.error());
    if (auto r = run(txn->get(), &*txn); !r) return tl::unexpected(r.error());
    return report;  // txn aborts: nothing changes
  }
  auto batch = detail::take_pending(*e);  // fresh last-use stamps before choosing LRU victims
  auto r = e->write([&](lmdb::WriteTxn& txn) -> Result<void> {
    if (auto b = detail::write_batch(txn, *e, batch); !b) return b;
    return run(txn.get(), &txn);
  });
  if (!r) {
    detail::restore_pending(*e, std::move(batch));
    return tl::unexpected(r.error());
  }
  return report;
}

}  // namespace cccl_cache
