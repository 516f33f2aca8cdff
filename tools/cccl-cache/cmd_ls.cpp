// cccl-cache ls: one row per entry.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

struct LsOptions {
  std::string algorithm;
  std::string arch;
  bool json = false;
};

struct Row {
  CacheKey key;
  EntryMeta meta;
};

int run_ls(const Context& ctx, const LsOptions& o) {
  const auto arch = parse_arch_filter(o.arch);
  if (!arch) return report(arch.error());
  const std::optional<std::uint32_t> cc = *arch;
  auto store = open_store(ctx.globals, OpenMode::read);
  if (!store) return report(store.error());
  std::vector<Row> rows;
  auto r = (*store)->for_each([&](const CacheKey& key, const EntryMeta& meta) {
    if ((!o.algorithm.empty() && meta.algorithm != o.algorithm) || (cc && key.cc != *cc))
      return true;
    rows.push_back({key, meta});
    return true;
  });
  if (!r) return report(r.error());
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.meta.algorithm, a.meta.summary, a.key.cc) <
           std::tie(b.meta.algorithm, b.meta.summary, b.key.cc);
  });
  std::uint64_t total = 0;
  for (const auto& row : rows) total += row.meta.payload_size;

  if (o.json) {
    auto list = nlohmann::json::array();
    for (const auto& row : rows) list.push_back(entry_json(row.key, row.meta));
    print_json({{"entries", list}, {"count", rows.size()}, {"total_bytes", total}});
    return kExitOk;
  }
  if (rows.empty()) {
    std::printf("no entries\n");
    return kExitOk;
  }
  // Everything shown comes from the store: escaped, so that stored bytes never reach
  // the terminal raw.
  for (auto& row : rows) {
    row.meta.algorithm = printable(row.meta.algorithm);
    row.meta.summary = printable(row.meta.summary);
    row.meta.toolchain = printable(row.meta.toolchain);
  }
  std::size_t spec_w = 4;
  for (const auto& row : rows) spec_w = std::max(spec_w, row.meta.summary.size());
  const int sw = static_cast<int>(spec_w);
  std::printf("%-37s  %-10s  %-*s  %-6s  %10s  %-20s  %-20s  %6s  %s\n", "KEY", "ALGORITHM", sw,
              "SPEC", "ARCH", "SIZE", "CREATED", "LAST USED", "HITS", "TOOLCHAIN");
  for (const auto& row : rows) {
    std::printf(
        "%-37s  %-10s  %-*s  %-6s  %10s  %-20s  %-20s  %6llu  %s\n", row.key.to_string().c_str(),
        row.meta.algorithm.c_str(), sw, row.meta.summary.c_str(), cc_name(row.key.cc).c_str(),
        human_size(row.meta.payload_size).c_str(), format_time(row.meta.created_unix).c_str(),
        format_time(row.meta.last_used_unix).c_str(),
        static_cast<unsigned long long>(row.meta.hits), row.meta.toolchain.c_str());
  }
  std::printf("%zu entr%s, %s\n", rows.size(), rows.size() == 1 ? "y" : "ies",
              human_size(total).c_str());
  return kExitOk;
}

}  // namespace

void add_ls(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<LsOptions>();
  auto* cmd = app.add_subcommand("ls", "List the cache entries, one row each");
  cmd->add_option("--algorithm", o->algorithm, "Only entries of this algorithm (e.g. merge_sort)");
  cmd->add_option("--arch", o->arch, "Only entries for this compute capability (e.g. sm_90)");
  cmd->add_flag("--json", o->json, "Print JSON instead of a table");
  cmd->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_ls(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
