// cccl-cache evict: removes entries by age, size budget, CC, algorithm or toolchain.
#include <cstdio>
#include <memory>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "commands.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

struct EvictOptions {
  std::string older_than;
  std::string max_size;
  std::string arch;
  std::string algorithm;
  bool toolchain_mismatch = false;
  bool dry_run = false;
  bool json = false;
};

Result<EvictCriteria> criteria_from(const EvictOptions& o) {
  EvictCriteria c;
  if (!o.older_than.empty()) {
    auto s = parse_duration_option("--older-than", o.older_than);
    if (!s) return tl::unexpected(s.error());
    c.older_than_s = *s;
  }
  if (!o.max_size.empty()) {
    auto b = parse_size_option("--max-size", o.max_size);
    if (!b) return tl::unexpected(b.error());
    c.max_live_bytes = *b;
  }
  auto cc = parse_arch_filter(o.arch);
  if (!cc) return tl::unexpected(cc.error());
  c.cc = *cc;
  if (!o.algorithm.empty()) c.algorithm = o.algorithm;
  if (o.toolchain_mismatch) {
    // Each algorithm's entries against its own fingerprint (its dispatch ABI is its own).
    c.toolchain_mismatch_with.emplace();
    for (const auto& a : algos::algorithms())
      c.toolchain_mismatch_with->emplace(a.name, algos::Toolchain::current().fingerprint(a.name));
    c.payload_format = algos::kBuildFormatVersion;
  }
  if (!c.older_than_s && !c.max_live_bytes && !c.cc && !c.algorithm && !c.toolchain_mismatch_with) {
    return fail(
        ErrorCode::invalid_argument,
        "evict: give at least one criterion (--older-than, --max-size, --arch, --algorithm, "
        "--toolchain-mismatch); 'cccl-cache clear' removes everything");
  }
  c.dry_run = o.dry_run;
  return c;
}

int run_evict(const Context& ctx, const EvictOptions& o) {
  auto criteria = criteria_from(o);
  if (!criteria) return report(criteria.error());
  auto store = open_store(ctx.globals, OpenMode::maintain);
  if (!store) return report(store.error());
  auto rep = (*store)->evict(*criteria);
  if (!rep) return report(rep.error());
  if (o.json) {
    auto list = nlohmann::json::array();
    for (const auto& item : rep->removed) {
      auto j = entry_json(item.key, item.meta);
      j["reason"] = item.reason;
      list.push_back(std::move(j));
    }
    print_json({{"dry_run", o.dry_run},
                {"removed", list},
                {"count", rep->removed.size()},
                {"bytes_freed", rep->bytes_freed}});
    return kExitOk;
  }
  const char* verb = o.dry_run ? "would remove" : "removed";
  for (const auto& item : rep->removed) {
    std::printf("%s %s  %s %s  %s  %s  (%s)\n", verb, item.key.to_string().c_str(),
                printable(item.meta.algorithm).c_str(), printable(item.meta.summary).c_str(),
                cc_name(item.key.cc).c_str(), human_size(item.meta.payload_size).c_str(),
                printable(item.reason).c_str());
  }
  std::printf("%s %zu entr%s, %s %s\n", verb, rep->removed.size(),
              rep->removed.size() == 1 ? "y" : "ies", human_size(rep->bytes_freed).c_str(),
              o.dry_run ? "would be freed" : "freed");
  return kExitOk;
}

}  // namespace

void add_evict(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<EvictOptions>();
  auto* cmd =
      app.add_subcommand("evict", "Remove entries by age, size, arch, algorithm or toolchain");
  cmd->add_option("--older-than", o->older_than,
                  "Entries last used longer ago than this (90s, 15m, 12h, 30d, 2w)");
  cmd->add_option("--max-size", o->max_size,
                  "Trim least recently used entries down to this many live bytes (512M, 1G)");
  cmd->add_option("--arch", o->arch, "Entries for this compute capability (sm_XY)");
  cmd->add_option("--algorithm", o->algorithm, "Entries of this algorithm (merge_sort)");
  cmd->add_flag("--toolchain-mismatch", o->toolchain_mismatch,
                "Entries built by another toolchain or payload format than this cccl-cache's");
  cmd->add_flag("--dry-run", o->dry_run, "Print what would be removed; remove nothing");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_evict(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
