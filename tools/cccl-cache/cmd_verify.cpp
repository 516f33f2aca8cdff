// cccl-cache verify [--repair]: checks every entry's checksum and that its build
// result deserializes and matches its key; --repair removes the bad ones.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "entry_check.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

struct VerifyOptions {
  bool repair = false;
  bool json = false;
};

struct Bad {
  CacheKey key;
  std::string summary;
  std::string reason;
  bool removed = false;
};

int run_verify(const Context& ctx, const VerifyOptions& o) {
  auto store = open_store(ctx.globals, o.repair ? OpenMode::maintain : OpenMode::read);
  if (!store) return report(store.error());
  // Collect first: no entry is read or removed inside the listing transaction.
  // Without --repair the store is open read-only, so nothing is dropped.
  std::vector<std::pair<CacheKey, EntryMeta>> listed;
  auto r = (*store)->for_each([&](const CacheKey& k, const EntryMeta& m) {
    listed.emplace_back(k, m);
    return true;
  });
  if (!r) return report(r.error());

  std::uint64_t ok = 0, unchecked = 0;
  std::vector<Bad> bad, stale;
  std::vector<std::string> notes;
  for (const auto& [key, meta] : listed) {
    // Listing reads metadata only; peek checks the envelope checksum. It answers a
    // miss for an entry that fails it (and, on a writable store, drops the entry).
    auto entry = (*store)->peek(key);
    if (!entry) return report(entry.error());
    if (!*entry) {
      bad.push_back({key, meta.summary, "checksum mismatch or malformed envelope"});
      continue;
    }
    const auto check = check_payload(key, (*entry)->meta, (*entry)->payload);
    if (check.status == CheckStatus::ok) {
      ++ok;
    } else if (check.status == CheckStatus::stale) {
      stale.push_back({key, meta.summary, check.reason});
    } else if (check.status == CheckStatus::unchecked) {
      ++unchecked;
      notes.push_back(key.to_string() + ": " + check.reason);
    } else {
      bad.push_back({key, meta.summary, check.reason});
    }
  }
  if (o.repair) {
    for (auto& b : bad) {
      auto removed = (*store)->remove(b.key);  // false when the store already dropped it
      if (!removed) return report(removed.error());
      b.removed = true;
    }
  }

  if (o.json) {
    auto list = nlohmann::json::array();
    for (const auto& b : bad) {
      list.push_back({{"key", b.key.to_string()},
                      {"spec", b.summary},
                      {"reason", b.reason},
                      {"removed", b.removed}});
    }
    auto stale_list = nlohmann::json::array();
    for (const auto& s : stale)
      stale_list.push_back({{"key", s.key.to_string()}, {"spec", s.summary}, {"reason", s.reason}});
    print_json({{"checked", listed.size()},
                {"ok", ok},
                {"unchecked", unchecked},
                {"stale", stale_list},
                {"bad", list},
                {"repaired", o.repair}});
  } else {
    for (const auto& n : notes) std::printf("note %s\n", n.c_str());
    for (const auto& s : stale) {
      std::printf("STALE %s  %s: %s\n", s.key.to_string().c_str(), s.summary.c_str(),
                  s.reason.c_str());
    }
    for (const auto& b : bad) {
      std::printf("BAD %s  %s: %s%s\n", b.key.to_string().c_str(), b.summary.c_str(),
                  b.reason.c_str(), b.removed ? " (removed)" : "");
    }
    std::printf(
        "checked %zu entries: %llu ok, %llu checksum only, %zu stale toolchain%s, %zu bad%s\n",
        listed.size(), static_cast<unsigned long long>(ok),
        static_cast<unsigned long long>(unchecked), stale.size(),
        stale.empty() ? "" : " (kept; 'cccl-cache evict --toolchain-mismatch' removes them)",
        bad.size(),
        bad.empty()
            ? ""
            : (o.repair ? " (removed)" : " (run 'cccl-cache verify --repair' to remove them)"));
  }
  return bad.empty() ? kExitOk : kExitProblems;
}

}  // namespace

void add_verify(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<VerifyOptions>();
  auto* cmd = app.add_subcommand(
      "verify", "Check every entry's checksum and build result; exit 1 if any is bad");
  cmd->add_flag("--repair", o->repair, "Remove the bad entries");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_verify(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
