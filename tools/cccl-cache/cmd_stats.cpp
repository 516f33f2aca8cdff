// cccl-cache stats: counters as text, JSON or Prometheus (node-exporter textfile).
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "format.hpp"
#include "remote_util.hpp"

namespace cccl_cache::cli {

namespace {

struct StatsOptions {
  bool json = false;
  bool prometheus = false;
};

// Label values escape backslash, double quote and newline (Prometheus text format).
std::string label_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

void prometheus(const StoreStats& s, const std::string& dir) {
  const std::string labels = "{cache_dir=\"" + label_escape(dir) + "\"}";
  auto metric = [&](const char* name, const char* type, const char* help, double value) {
    std::printf("# HELP %s %s\n# TYPE %s %s\n%s%s %.17g\n", name, help, name, type, name,
                labels.c_str(), value);
  };
  auto d = [](std::uint64_t v) { return static_cast<double>(v); };
  metric("cccl_cache_hits_total", "counter", "Store lookups that found a valid entry.", d(s.hits));
  metric("cccl_cache_misses_total", "counter", "Store lookups that found no valid entry.",
         d(s.misses));
  metric("cccl_cache_hit_ratio", "gauge", "hits / (hits + misses); 0 before any lookup.",
         s.hit_ratio());
  metric("cccl_cache_entries", "gauge", "Live entries in the store.", d(s.entries));
  metric("cccl_cache_live_bytes", "gauge", "Payload bytes of the live entries.", d(s.live_bytes));
  metric("cccl_cache_budget_bytes", "gauge", "Budget of live payload bytes (max_size).",
         d(s.budget_bytes));
  metric("cccl_cache_map_size_bytes", "gauge", "Current LMDB map size.", d(s.map_size));
  metric("cccl_cache_puts_total", "counter", "Entries written.", d(s.puts));
  metric("cccl_cache_put_requests_total", "counter",
         "Write requests (a batch of many entries is one).", d(s.put_requests));
  metric("cccl_cache_written_bytes_total", "counter", "Payload bytes written.", d(s.bytes_written));
  metric("cccl_cache_evictions_total", "counter", "Entries evicted (budget or evict command).",
         d(s.evictions));
  metric("cccl_cache_evicted_bytes_total", "counter", "Payload bytes evicted.", d(s.bytes_evicted));
  metric("cccl_cache_corrupt_entries_total", "counter", "Corrupt entries detected and dropped.",
         d(s.corrupt));
  metric("cccl_cache_quarantined_total", "counter",
         "Damaged data files moved into quarantine/ at open.", d(s.quarantined));
  metric("cccl_cache_signed_entries", "gauge", "Live entries stored with a signature.",
         d(s.signed_entries));
  metric("cccl_cache_host_claim_waits_total", "counter",
         "Misses that waited for another process's build on this host.", d(s.host_claim_waits));
  metric("cccl_cache_cluster_lease_waits_total", "counter",
         "Misses that waited for another host's build (cluster lease).", d(s.cluster_lease_waits));
  metric("cccl_cache_wait_bound_builds_total", "counter",
         "Waits that ran past build_wait_ms (built here as well).", d(s.wait_bound_builds));
  metric("cccl_cache_cc_fallback_serves_total", "counter",
         "Acquisitions served by a lower minor CC's entry (cc_fallback).", d(s.cc_fallback_serves));
  metric("cccl_cache_signature_rejections_total", "counter",
         "Shared-tier entries refused for their signature.", d(s.signature_rejections));
}

// A store's requests: its lookups (each key one) and its write requests (a batch of
// many entries one), as the store's tier counts them.
std::uint64_t store_requests(const StoreStats& s) { return s.hits + s.misses + s.put_requests; }

// One row per tier after the local store: each image's own counters and size, the
// remote's reachability now and the totals its clients have flushed.
nlohmann::json tier_rows(const Config& config, const StoreStats& local) {
  auto rows = nlohmann::json::array();
  rows.push_back({{"tier", "local:" + config.dir.string()}, {"requests", store_requests(local)},
                  {"hits", local.hits}, {"misses", local.misses}, {"rejected", local.corrupt},
                  {"entries", local.entries}});
  for (const auto& dir : config.images) {
    Config c = config;
    c.dir = dir;
    c.read_only = c.immutable = true;
    nlohmann::json row{{"tier", "image:" + dir.string()}};
    auto image = Store::open(c);
    auto s = image ? (*image)->stats() : Result<StoreStats>(tl::unexpected(image.error()));
    if (s) {
      row.update({{"available", true}, {"requests", store_requests(*s)}, {"hits", s->hits},
                  {"misses", s->misses}, {"rejected", s->corrupt}, {"entries", s->entries}});
    } else {
      row.update({{"available", false}, {"error", s.error().describe()}});
    }
    rows.push_back(row);
  }
  if (!config.remote.url.empty()) {
    auto remote = open_remote_tier(config, 0);
    nlohmann::json row{{"tier", remote ? (*remote)->name() : config.remote.url}};
    auto rtt = remote ? (*remote)->ping() : Result<std::chrono::nanoseconds>(tl::unexpected(remote.error()));
    auto s = rtt ? (*remote)->shared_stats() : Result<TierStats>(tl::unexpected(rtt.error()));
    if (s) {
      const std::uint64_t gets = s->hits + s->misses;
      row.update({{"available", true}, {"round_trip_ms", static_cast<double>(rtt->count()) / 1e6},
                  {"requests", s->requests}, {"hits", s->hits}, {"misses", s->misses},
                  {"errors", s->errors},
                  {"rejected", s->rejected}, {"puts", s->puts},
                  {"mean_get_ms", gets ? static_cast<double>(s->get_ns_total) / 1e6 / static_cast<double>(gets) : 0.0}});
    } else {
      row.update({{"available", false}, {"error", s.error().describe()}});
    }
    rows.push_back(row);
  }
  return rows;
}

void print_tiers(const nlohmann::json& rows) {
  std::printf("tiers:\n");
  for (const auto& row : rows) {
    std::string line = "  " + printable(row["tier"].get<std::string>());
    if (row.contains("error")) {
      line += "  unavailable: " + printable(row["error"].get<std::string>());
    } else {
      if (row.contains("round_trip_ms"))
        line += "  reachable (" + std::to_string(row["round_trip_ms"].get<double>()) + " ms)";
      for (const char* k : {"entries", "requests", "hits", "misses", "errors", "rejected", "puts"})
        if (row.contains(k)) line += std::string("  ") + k + " " + std::to_string(row[k].get<std::uint64_t>());
      if (row.contains("mean_get_ms"))
        line += "  mean get " + std::to_string(row["mean_get_ms"].get<double>()) + " ms (all clients)";
    }
    std::printf("%s\n", line.c_str());
  }
}

int run_stats(const Context& ctx, const StatsOptions& o) {
  if (o.json && o.prometheus)
    return report(kExitUsage, "stats: give --json or --prometheus, not both");
  auto store = open_store(ctx.globals, OpenMode::read);
  if (!store) return report(store.error());
  auto s = (*store)->stats();
  if (!s) return report(s.error());
  const std::string dir = (*store)->config().dir.string();
  if (o.prometheus) {
    prometheus(*s, dir);
    return kExitOk;
  }
  if (o.json) {
    print_json({{"cache_dir", dir},
                {"hits", s->hits},
                {"misses", s->misses},
                {"hit_ratio", s->hit_ratio()},
                {"entries", s->entries},
                {"live_bytes", s->live_bytes},
                {"budget_bytes", s->budget_bytes},
                {"map_size", s->map_size},
                {"puts", s->puts},
                {"put_requests", s->put_requests},
                {"bytes_written", s->bytes_written},
                {"evictions", s->evictions},
                {"bytes_evicted", s->bytes_evicted},
                {"corrupt", s->corrupt},
                {"quarantined", s->quarantined},
                {"signed_entries", s->signed_entries},
                {"host_claim_waits", s->host_claim_waits},
                {"cluster_lease_waits", s->cluster_lease_waits},
                {"wait_bound_builds", s->wait_bound_builds},
                {"cc_fallback_serves", s->cc_fallback_serves},
                {"signature_rejections", s->signature_rejections},
                {"tiers", tier_rows((*store)->config(), *s)}});
    return kExitOk;
  }
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("cache:       %s\n", dir.c_str());
  std::printf("entries:     %llu\n", u(s->entries));
  std::printf("live bytes:  %s of %s budget (%llu bytes)\n", human_size(s->live_bytes).c_str(),
              human_size(s->budget_bytes).c_str(), u(s->live_bytes));
  std::printf("map size:    %s\n", human_size(s->map_size).c_str());
  std::printf("hits:        %llu\n", u(s->hits));
  std::printf("misses:      %llu\n", u(s->misses));
  std::printf("hit ratio:   %.1f%%\n", 100.0 * s->hit_ratio());
  std::printf("puts:        %llu (%s written, %llu write request%s)\n", u(s->puts),
              human_size(s->bytes_written).c_str(), u(s->put_requests),
              s->put_requests == 1 ? "" : "s");
  std::printf("evictions:   %llu (%s freed)\n", u(s->evictions),
              human_size(s->bytes_evicted).c_str());
  std::printf("corrupt:     %llu entries detected\n", u(s->corrupt));
  std::printf("quarantined: %llu damaged data files moved into quarantine/\n", u(s->quarantined));
  std::printf("signed:      %llu entries stored with a signature\n", u(s->signed_entries));
  std::printf("waits:       %llu for this host's builder, %llu for another host's (lease), "
              "%llu past build_wait_ms (built here too)\n",
              u(s->host_claim_waits), u(s->cluster_lease_waits), u(s->wait_bound_builds));
  std::printf("cc fallback: %llu acquisitions served by a lower minor's entry\n",
              u(s->cc_fallback_serves));
  std::printf("signatures:  %llu shared entries rejected\n", u(s->signature_rejections));
  const Config& config = (*store)->config();
  if (!config.images.empty() || !config.remote.url.empty()) print_tiers(tier_rows(config, *s));
  return kExitOk;
}

}  // namespace

void add_stats(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<StatsOptions>();
  auto* cmd = app.add_subcommand("stats", "Hits, misses, sizes, evictions, corrupt entries, waits, fallbacks, signature rejections");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("--prometheus", o->prometheus,
                "Print the Prometheus text format (node-exporter textfile collector)");
  cmd->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_stats(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
