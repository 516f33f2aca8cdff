// A new node's start-up from the remote tier, CPU side (no GPU: everything up to, not
// including, the driver bind), on the development machine against a redis-server on
// loopback (bench/remote_startup_cpu.sh starts one). NEW processes (this program
// re-executed) make the first N default specs (bench/default_specs.hpp; 12 by default)
// ready for sm_90 in four states, alternating, in one run:
//
//   warm:          the local store holds every entry: prefetch, then each spec's
//                  prewarm (a local hit: read, checksum, record and kernel checks)
//   remote_single: empty local store, every entry in Redis, each spec on its own (the
//                  path without prefetch: one GET, one check, one backfill commit each)
//   remote_batch:  the same through AlgorithmCache::prefetch_for_cc (one MGET, every
//                  entry checked, one backfill commit), then each spec's prewarm (local)
//   warm_single:   warm without prefetch (what warm_single costs beside warm is
//                  prefetch's own cost on a warm node)
//
// plus each state's phases (open the tier stack, construct the AlgorithmCache, prefetch,
// the prewarms) and the per-entry path and the batch timed step by step in children of
// their own (remote_breakdown.hpp, shared with bench_remote_startup). The GPU side (binds) is
// bench_remote_startup (scripts/gpu/run.sh part remote_startup).
//
// Usage: bench_remote_startup_cpu REDIS_URL [children=16] [specs=12]
//   REDIS_URL without a database, e.g. redis://127.0.0.1:6379 (db 2 is used)
// With CCCL_CACHE_BENCH_DIR the seed store (the N builds) is kept there for later runs.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/cache/redis_tier.hpp"
#include "cccl_cache/cache/tiers.hpp"
#include "default_specs.hpp"
#include "remote_breakdown.hpp"

namespace ca = cccl_cache::algos;

namespace {

constexpr std::uint32_t kCc = 90;

cccl_cache::Config config_for(const std::string& dir, const std::string& url) {
  cccl_cache::Config config = cccl_cache::Config::defaults();
  config.dir = dir;
  config.remote.url = url;
  // The 2-core development machine runs other builds beside redis-server: a 5 ms pause of
  // either is common there, and would trip the breaker (then count as a miss and build).
  // The bound is not what this measures.
  config.remote.timeout_ms = 100;
  return config;
}

std::shared_ptr<cccl_cache::TierStack> open_tiers(const std::string& dir, const std::string& url) {
  auto tiers = cccl_cache::TierStack::open(config_for(dir, url));
  if (!tiers) bench::die("open " + dir + ": " + tiers.error().describe());
  return *tiers;
}

std::vector<bench::Entry> first_specs(std::size_t n) {
  std::vector<bench::Entry> specs = bench::defaults();
  specs.resize(std::min(n, specs.size()));
  return specs;
}

// A start-up in `state` over the store in `dir` and the remote at `url`.
int child(const std::string& state, const std::string& dir, const std::string& url, std::size_t n) {
  const auto specs = first_specs(n);
  std::vector<ca::AnySpec> any;
  for (const auto& e : specs) any.push_back(e.any);
  const auto t0 = bench::Clock::now();
  auto tiers = open_tiers(dir, url);
  const double open_ms = bench::ns_since(t0) / 1e6;
  ca::AlgorithmCache cache(tiers);
  const double cache_ms = bench::ns_since(t0) / 1e6 - open_ms;
  double prefetch_ms = 0;
  if (state == "warm" || state == "remote_batch") {
    const auto tp = bench::Clock::now();
    auto report = cache.prefetch_for_cc(any, kCc);
    if (!report) bench::die("prefetch: " + report.error().describe());
    prefetch_ms = bench::ns_since(tp) / 1e6;
  }
  const auto ta = bench::Clock::now();
  for (const auto& e : specs)
    if (auto r = e.prewarm(cache, kCc); !r) bench::die(e.name + ": " + r.error().describe());
  const double acquire_ms = bench::ns_since(ta) / 1e6;
  const double all_ms = bench::ns_since(t0) / 1e6;
  const auto st = cache.stats();
  const auto remote = tiers->remote()->stats();
  const bool from_remote = state.rfind("remote", 0) == 0;
  if (st.builds != 0 || remote.hits != (from_remote ? specs.size() : 0))
    bench::die(state + ": " + std::to_string(st.builds) + " builds, " + std::to_string(remote.hits) +
               " remote hits (errors " + std::to_string(remote.errors) + ")");
  const auto local = tiers->local()->stats();  // its writes: requests that were no lookup
  std::printf("CHILD all_ms=%.4f open_ms=%.4f cache_ms=%.4f prefetch_ms=%.4f acquire_ms=%.4f "
              "remote_requests=%llu local_writes=%llu\n",
              all_ms, open_ms, cache_ms, prefetch_ms, acquire_ms,
              static_cast<unsigned long long>(remote.requests),
              static_cast<unsigned long long>(local.requests - local.hits - local.misses - local.errors));
  return 0;
}

// The N entries built once into `seed` (kept under CCCL_CACHE_BENCH_DIR), then published
// to the remote at `url`.
void seed_remote(const std::string& seed, const std::string& url, std::size_t n) {
  {
    auto store = cccl_cache::Store::open(config_for(seed, ""));
    if (!store) bench::die("seed: " + store.error().describe());
    ca::AlgorithmCache cache(*store);
    for (const auto& e : first_specs(n))
      if (auto r = e.prewarm(cache, kCc); !r) bench::die("seed " + e.name + ": " + r.error().describe());
  }
  auto store = cccl_cache::Store::open(config_for(seed, ""));
  auto remote = cccl_cache::RedisTier::open(config_for(seed, url).remote);
  if (!store || !remote) bench::die("seed: cannot open the store or the remote");
  std::vector<cccl_cache::CacheKey> keys;
  (void)(*store)->for_each([&](const cccl_cache::CacheKey& k, const cccl_cache::EntryMeta&) {
    keys.push_back(k);
    return true;
  });
  for (const auto& k : keys) {
    auto entry = (*store)->peek(k);
    if (!entry || !*entry) bench::die("seed: unreadable entry");
    if (auto r = (*remote)->put_signed(k, (*entry)->meta, (*entry)->payload, (*entry)->signature); !r)
      bench::die("seed: publish failed: " + r.error().describe());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 5 && std::string(argv[1]) == "--child")
    return std::string(argv[2]) == "breakdown"
               ? bench::remote_breakdown_child(
                     argv[3], [url = std::string(argv[4])](const std::string& d) { return open_tiers(d, url); },
                     std::stoul(argv[5]), kCc)
               : child(argv[2], argv[3], argv[4], std::stoul(argv[5]));
  if (argc < 2 || std::string(argv[1]).rfind("redis://", 0) != 0)
    bench::die("usage: bench_remote_startup_cpu redis://HOST:PORT [children=16] [specs=12]");
  const std::string url = std::string(argv[1]) + "/2";
  const int children = argc > 2 ? std::atoi(argv[2]) : 16;
  const std::size_t nspecs = argc > 3 ? std::stoul(argv[3]) : 12;
  if (children < 1) bench::die("children >= 1");
  const auto root = bench::bench_dir("remote_startup_cpu");
  const auto dir = [&](const std::string& name) { return (root / name).string(); };
  seed_remote(dir("seed"), url, nspecs);
  const auto args = [&](const std::string& state, const std::string& d) {
    return state + " " + d + " " + url + " " + std::to_string(nspecs);
  };
  std::map<std::string, std::map<std::string, std::vector<double>>> runs;
  const char* states[] = {"warm", "remote_single", "remote_batch", "warm_single"};
  std::vector<std::string> used;  // removed at the end: a removal's journal work would
                                  // land on the next child's commit
  for (int i = 0; i < children; ++i)
    for (const char* state : states) {
      const bool cold = std::string(state).rfind("remote", 0) == 0;
      const std::string d = cold ? dir(std::string(state) + std::to_string(i)) : dir("seed");
      bench::run_self_child("", args(state, d), runs[state]);
      if (cold) used.push_back(d);
    }
  for (const auto& d : used) std::filesystem::remove_all(d);
  std::printf("%zu default specs for sm_%u, remote %s, new processes, CPU side (no bind)\n",
              std::min(nspecs, bench::defaults().size()), kCc, url.c_str());
  for (const char* state : states)
    bench::print_percentiles((std::string(state) + ": all ready").c_str(), runs[state]["all_ms"], "ms");
  bench::print_percentiles("remote_batch: prefetch alone", runs["remote_batch"]["prefetch_ms"], "ms");
  bench::print_percentiles("warm: prefetch alone", runs["warm"]["prefetch_ms"], "ms");
  for (const char* state : {"warm", "remote_batch"})
    for (const char* part : {"open_ms", "cache_ms", "acquire_ms"})
      bench::print_percentiles((std::string(state) + ": " + part).c_str(), runs[state][part], "ms");
  std::printf("round trips to Redis per start-up: remote_single %.0f, remote_batch %.0f; local "
              "backfill commits: %.0f, %.0f\n",
              bench::median(runs["remote_single"]["remote_requests"]),
              bench::median(runs["remote_batch"]["remote_requests"]),
              bench::median(runs["remote_single"]["local_writes"]),
              bench::median(runs["remote_batch"]["local_writes"]));
  bench::run_remote_breakdown(root, url, nspecs, std::min(children, 5));
  const double warm = bench::median(runs["warm"]["all_ms"]);
  std::printf("RESULT warm_ms_p50=%.3f remote_single_ms_p50=%.3f remote_batch_ms_p50=%.3f "
              "single_over_warm=%.2f batch_over_warm=%.2f warm_single_ms_p50=%.3f children=%d\n",
              warm, bench::median(runs["remote_single"]["all_ms"]),
              bench::median(runs["remote_batch"]["all_ms"]),
              bench::median(runs["remote_single"]["all_ms"]) / warm,
              bench::median(runs["remote_batch"]["all_ms"]) / warm,
              bench::median(runs["warm_single"]["all_ms"]), children);
  std::error_code ec;
  if (!std::getenv("CCCL_CACHE_BENCH_DIR")) std::filesystem::remove_all(root, ec);
  return 0;
}
