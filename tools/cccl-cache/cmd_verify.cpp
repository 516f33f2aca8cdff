// cccl-cache verify [--repair]: checks the store's LMDB structure (integrity.hpp), that
// what it walked agrees with the database's own counts and the store's counters, then
// every entry's checksum and that its build result deserializes and matches its key.
// Signatures: with trusted keys or a signing key configured (store_trust), every entry
// needs a valid signature by one of those keys (a store meant as a signed image);
// either way a signature without its entry is a problem. --repair rebuilds a damaged
// store from every readable entry and removes bad entries and orphan signatures.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cccl_cache/cache/integrity.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "commands.hpp"
#include "entry_check.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

struct VerifyOptions {
  bool repair = false;
  bool json = false;
  std::string archive;                    // verify an archive instead of the store
  std::vector<std::string> trusted_keys;  // beside the config's, for --archive
};

struct Bad {
  CacheKey key;
  std::string summary;
  std::string reason;
  bool removed = false;
};

struct Outcome {
  std::vector<std::string> damage;  // structural damage or counts that disagree
  std::optional<RepairReport> rebuilt;
  std::uint64_t checked = 0, ok = 0, unchecked = 0;
  bool signatures_required = false;
  std::uint64_t signed_ok = 0;           // entries whose signature verified (when required)
  std::uint64_t carrying_signature = 0;  // entries stored with a signature
  std::vector<CacheKey> orphan_signatures;
  bool orphans_removed = false;
  std::vector<Bad> bad;
  std::vector<Bad> stale;  // sound, of another toolchain: kept
  std::vector<std::string> notes;
};

using Listing = std::vector<std::pair<CacheKey, EntryMeta>>;

std::string disagree(const std::string& what, std::uint64_t a, const std::string& other,
                     std::uint64_t b) {
  return what + " " + std::to_string(a) + ", but " + other + " " + std::to_string(b);
}

// What the listing found against mdb_stat, the walked trees and the live-bytes counter.
// Runs before any entry is read: reading a corrupt entry on a writable store drops it.
Result<std::vector<std::string>> cross_check(Store& store, const std::filesystem::path& data,
                                             const Listing& listed) {
  std::vector<std::string> out;
  auto stats = store.stats();
  if (!stats) return tl::unexpected(stats.error());
  std::uint64_t bytes = 0;
  for (const auto& [key, meta] : listed) bytes += meta.payload_size;
  if (stats->entries != listed.size())
    out.push_back(disagree("the entries database's record (mdb_stat) counts", stats->entries,
                           "a walk with a cursor lists", listed.size()));
  if (stats->live_bytes != bytes)
    out.push_back(disagree("the live-bytes counter says", stats->live_bytes,
                           "the listed entries hold", bytes));
  auto check = check_lmdb_file(data);
  if (!check && check.error().code == ErrorCode::corrupt) {
    out.push_back(check.error().message);
  } else if (check && !check->fresh) {
    const auto* entries = check->tree("entries");
    const auto* usage = check->tree("usage");
    if (check->complete && entries && entries->entries != listed.size())
      out.push_back(
          disagree("the structural walk found", entries->entries, "a cursor lists", listed.size()));
    if (check->complete && entries && usage && usage->entries != entries->entries)
      out.push_back(disagree("the usage database holds", usage->entries,
                             "records for entries numbering", entries->entries));
  }
  return out;
}

// Checks every listed entry and its signature (removing bad ones with --repair) into `out`.
Result<void> check_entries(Store& store, const Listing& listed, const TrustSet& trust,
                           bool repair, Outcome& out) {
  out.checked += listed.size();
  for (const auto& [key, meta] : listed) {
    // Listing reads metadata only; peek checks the envelope checksum. It answers a
    // miss for an entry that fails it (and, on a writable store, drops the entry).
    auto entry = store.peek(key);
    if (!entry) return tl::unexpected(entry.error());
    if (!*entry) {
      out.bad.push_back({key, meta.summary, "checksum mismatch or malformed envelope"});
      continue;
    }
    const Entry& e = **entry;
    out.carrying_signature += !e.signature.empty();
    if (trust.enabled()) {  // first: nothing parses an entry its signature refuses
      auto signer = trust.verify(key, signed_fields(e.meta), e.payload,
                                 e.signature.empty() ? std::nullopt
                                                     : std::optional<std::string_view>(e.signature));
      if (!signer) {
        out.bad.push_back(
            {key, meta.summary, "signature: " + std::string(to_string(signer.error()))});
        continue;
      }
      ++out.signed_ok;
    }
    const auto check = check_payload(key, (*entry)->meta, (*entry)->payload);
    if (check.status == CheckStatus::ok) {
      ++out.ok;
    } else if (check.status == CheckStatus::stale) {
      out.stale.push_back({key, meta.summary, check.reason});
    } else if (check.status == CheckStatus::unchecked) {
      ++out.unchecked;
      out.notes.push_back(key.to_string() + ": " + check.reason);
    } else {
      out.bad.push_back({key, meta.summary, check.reason});
    }
  }
  if (repair) {
    for (auto& b : out.bad) {
      auto removed = store.remove(b.key);  // false when the store already dropped it
      if (!removed) return tl::unexpected(removed.error());
      b.removed = true;
    }
  }
  auto orphans = store.orphan_signatures();
  if (!orphans) return tl::unexpected(orphans.error());
  out.orphan_signatures = std::move(*orphans);
  if (repair && !out.orphan_signatures.empty()) {
    for (const auto& key : out.orphan_signatures)
      if (auto removed = store.remove(key); !removed) return tl::unexpected(removed.error());
    out.orphans_removed = true;
  }
  return {};
}

void print(const Outcome& o, bool repair, bool json) {
  if (json) {
    auto list = nlohmann::json::array();
    for (const auto& b : o.bad) {
      list.push_back({{"key", b.key.to_string()},
                      {"spec", b.summary},
                      {"reason", b.reason},
                      {"removed", b.removed}});
    }
    nlohmann::json rebuilt = nullptr;
    if (o.rebuilt)
      rebuilt = {{"salvaged", o.rebuilt->salvaged},
                 {"lost", o.rebuilt->lost},
                 {"unsigned_dropped", o.rebuilt->unsigned_dropped},
                 {"skipped_pages", o.rebuilt->skipped_pages},
                 {"moved_to", o.rebuilt->moved_to.string()}};
    auto stale_list = nlohmann::json::array();
    for (const auto& st : o.stale)
      stale_list.push_back({{"key", st.key.to_string()}, {"spec", st.summary}, {"reason", st.reason}});
    auto orphans = nlohmann::json::array();
    for (const auto& k : o.orphan_signatures) orphans.push_back(k.to_string());
    print_json({{"checked", o.checked},
                {"signatures_required", o.signatures_required},
                {"signature_ok", o.signed_ok},
                {"signed", o.carrying_signature},
                {"orphan_signatures", orphans},
                {"orphan_signatures_removed", o.orphans_removed},
                {"ok", o.ok},
                {"unchecked", o.unchecked},
                {"stale", stale_list},
                {"bad", list},
                {"damage", o.damage},
                {"rebuilt", rebuilt},
                {"repaired", repair}});
    return;
  }
  for (const auto& d : o.damage) std::printf("DAMAGED %s\n", d.c_str());
  if (o.rebuilt)
    std::printf(
        "rebuilt the store: salvaged %llu entries, lost %llu, dropped %llu without a valid "
        "signature (%llu damaged pages skipped); the damaged files are in %s\n",
        static_cast<unsigned long long>(o.rebuilt->salvaged),
        static_cast<unsigned long long>(o.rebuilt->lost),
        static_cast<unsigned long long>(o.rebuilt->unsigned_dropped),
        static_cast<unsigned long long>(o.rebuilt->skipped_pages), o.rebuilt->moved_to.c_str());
  else if (!o.damage.empty())
    std::printf(
        "the store is damaged: run 'cccl-cache verify --repair' to rebuild it from "
        "its readable entries\n");
  for (const auto& n : o.notes) std::printf("note %s\n", n.c_str());
  for (const auto& st : o.stale) {
    std::printf("STALE %s  %s: %s\n", st.key.to_string().c_str(), st.summary.c_str(),
                st.reason.c_str());
  }
  for (const auto& b : o.bad) {
    std::printf("BAD %s  %s: %s%s\n", b.key.to_string().c_str(), b.summary.c_str(),
                b.reason.c_str(), b.removed ? " (removed)" : "");
  }
  for (const auto& k : o.orphan_signatures)
    std::printf("ORPHAN signature of %s without its entry%s\n", k.to_string().c_str(),
                o.orphans_removed ? " (removed)" : "");
  if (o.signatures_required)
    std::printf("signatures: %llu valid by a trusted key (required: trusted_keys or signing_key "
                "configured)\n",
                static_cast<unsigned long long>(o.signed_ok));
  else
    std::printf("signatures: %llu entries signed, not checked (no trusted_keys or signing_key "
                "configured)\n",
                static_cast<unsigned long long>(o.carrying_signature));
  std::printf("checked %llu entries: %llu ok, %llu checksum only, %zu stale toolchain%s, %zu bad%s\n",
              static_cast<unsigned long long>(o.checked), static_cast<unsigned long long>(o.ok),
              static_cast<unsigned long long>(o.unchecked), o.stale.size(),
              o.stale.empty() ? "" : " (kept; 'cccl-cache evict --toolchain-mismatch' removes them)",
              o.bad.size(),
              o.bad.empty()
                  ? ""
                  : (repair ? " (removed)" : " (run 'cccl-cache verify --repair' to remove them)"));
}

int run_verify(const Context& ctx, const VerifyOptions& o) {
  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  const auto data = config->dir / "data.mdb";
  Outcome out;
  auto trust = store_trust(*config);
  if (!trust) return report(trust.error());
  out.signatures_required = trust->enabled();
  auto rebuild = [&]() -> Result<void> {
    auto r = rebuild_store(*config);
    if (!r) return tl::unexpected(r.error());
    out.rebuilt = *r;
    return {};
  };
  std::error_code ec;
  // --repair salvages a damaged store before opening it (an open moves it aside whole).
  if (o.repair && std::filesystem::exists(data, ec)) {
    auto check = check_lmdb_file(data);
    if (!check && check.error().code != ErrorCode::corrupt) return report(check.error());
    if (check && check->fresh) check = fail(ErrorCode::corrupt, "data.mdb is empty (truncated)");
    if (!check) {
      out.damage.push_back(check.error().message);
      if (auto r = rebuild(); !r) return report(r.error());
    }
  }
  auto store = open_store(ctx.globals, o.repair ? OpenMode::maintain : OpenMode::read);
  if (!store && store.error().code == ErrorCode::corrupt && !o.repair) {
    out.damage.push_back(store.error().message);  // the read-only open found damage
    print(out, o.repair, o.json);
    return kExitProblems;
  }
  if (!store) return report(store.error());
  // Collect first: no entry is read or removed inside the listing transaction.
  // Without --repair the store is open read-only, so nothing is dropped.
  Listing listed;
  auto list = [&]() -> Result<void> {
    listed.clear();
    return (*store)->for_each([&](const CacheKey& k, const EntryMeta& m) {
      listed.emplace_back(k, m);
      return true;
    });
  };
  if (auto r = list(); !r) return report(r.error());
  auto disagreements = cross_check(**store, data, listed);
  if (!disagreements) return report(disagreements.error());
  out.damage.insert(out.damage.end(), disagreements->begin(), disagreements->end());
  if (o.repair && !disagreements->empty() && !out.rebuilt) {
    store->reset();  // the rebuild replaces the files: no handle of ours may hold them
    if (auto r = rebuild(); !r) return report(r.error());
    store = open_store(ctx.globals, OpenMode::maintain);
    if (!store) return report(store.error());
    if (auto r = list(); !r) return report(r.error());
  }
  if (auto r = check_entries(**store, listed, *trust, o.repair, out); !r)
    return report(r.error());
  print(out, o.repair, o.json);
  return out.bad.empty() && out.damage.empty() && out.orphan_signatures.empty() ? kExitOk
                                                                                : kExitProblems;
}

}  // namespace

void add_verify(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<VerifyOptions>();
  auto* cmd = app.add_subcommand("verify",
                                 "Check the store's structure and every entry's checksum and build "
                                 "result; exit 1 if anything is damaged or bad");
  cmd->add_flag("--repair", o->repair, "Rebuild a damaged store and remove the bad entries");
  cmd->add_flag("--json", o->json, "Print JSON");
  auto* archive = cmd->add_option("--archive", o->archive,
                                  "Check an export archive's entries and their signatures instead "
                                  "(signatures required when trusted keys are configured)");
  cmd->add_option("--trusted-key", o->trusted_keys,
                  "With --archive: also trust this public key (NAME:BASE64; repeatable)")
      ->needs(archive);
  cmd->get_option("--repair")->excludes(archive);
  cmd->callback([&ctx, o] {
    ctx.run = [&ctx, o] {
      if (!o->archive.empty()) return run_verify_archive(ctx, o->archive, o->trusted_keys, o->json);
      return run_verify(ctx, *o);
    };
  });
}

}  // namespace cccl_cache::cli
