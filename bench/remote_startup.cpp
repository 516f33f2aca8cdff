// A new node's start-up with the remote tier (GPU machine; a redis-server on loopback,
// scripts/gpu/run.sh part remote_startup starts one): a NEW process (this program
// re-executed) acquiring the first N default specs (bench/default_specs.hpp; 12 by
// default), from a current context until every executable is bound, in four states,
// in one run. A start-up is AlgorithmCache::prefetch of every spec (one batch), then
// each spec's acquire:
//
//   warm:   the local LMDB store holds every entry (the remote is configured, unused)
//   remote: an empty local store, every entry in the remote tier (one MGET, checksum,
//           signature gate and record checks passed, backfilled into the local store
//           in one transaction, then each acquired from the local store and bound)
//   remote_single: the same without prefetch (each acquire: one GET, one backfill)
//   cold:   nothing anywhere: every spec built (NVRTC + nvJitLink), stored, published
//
// The goal (issue 12): remote start-up under 2x the warm-local one. warm, remote and
// remote_single children alternate; cold runs first (its builds fill the remote and
// the warm store).
// Each cold repetition uses its own Redis database (db 2, 3, ...; db 1 is unused), which
// must start empty: use a fresh server.
//
// Usage: bench_remote_startup REDIS_URL [children=16] [specs=12] [cold_reps=2]
//   REDIS_URL without a database, e.g. redis://127.0.0.1:6379
// Output: percentiles per state, each state's phases (open the tier stack, construct the
// AlgorithmCache, prefetch, the acquires), the remote path step by step
// (remote_breakdown.hpp: a child of its own on fresh stores) and RESULT warm_ms_p50=... remote_ms_p50=... remote_single_ms_p50=... cold_ms_p50=...
// remote_over_warm=... cold_over_warm=...
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/cache/tiers.hpp"
#include "default_specs.hpp"
#include "remote_breakdown.hpp"

namespace ca = cccl_cache::algos;

namespace {

std::shared_ptr<cccl_cache::TierStack> open_tiers(const std::string& dir, const std::string& url) {
  cccl_cache::Config config = cccl_cache::Config::defaults();
  config.dir = dir;
  config.remote.url = url;
  auto tiers = cccl_cache::TierStack::open(config);
  if (!tiers) bench::die("open " + dir + ": " + tiers.error().describe());
  return *tiers;
}

// The child: from a current context to the first `n` default specs acquired through
// the stack over `dir` and the remote at `url`. `state` says what it must find.
int child(const std::string& state, const std::string& dir, const std::string& url, std::size_t n,
          bench::Clock::time_point t_main) {
  bench::gpu_context();
  const double context_ms = bench::ns_since(t_main) / 1e6;
  std::vector<bench::Entry> specs = bench::defaults();
  specs.resize(std::min(n, specs.size()));
  std::vector<ca::AnySpec> any;
  for (const auto& e : specs) any.push_back(e.any);
  const auto t0 = bench::Clock::now();
  auto tiers = open_tiers(dir, url);
  const double open_ms = bench::ns_since(t0) / 1e6;
  ca::AlgorithmCache cache(tiers);
  const double cache_ms = bench::ns_since(t0) / 1e6 - open_ms;
  if (state != "remote_single")
    if (auto r = cache.prefetch(any, 0); !r) bench::die("prefetch: " + r.error().describe());
  const double prefetch_ms = bench::ns_since(t0) / 1e6 - open_ms - cache_ms;
  double first_ms = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    (void)specs[i].acquire(cache);
    if (i == 0) first_ms = bench::ns_since(t0) / 1e6;
  }
  const double all_ms = bench::ns_since(t0) / 1e6;
  const double acquire_ms = all_ms - open_ms - cache_ms - prefetch_ms;
  const auto st = cache.stats();
  const auto remote = tiers->remote() ? tiers->remote()->stats() : cccl_cache::TierStats{};
  const std::uint64_t want_builds = state == "cold" ? specs.size() : 0;
  const std::uint64_t want_remote = state.rfind("remote", 0) == 0 ? specs.size() : 0;
  if (st.builds != want_builds || remote.hits != want_remote)
    bench::die(state + " start-up: " + std::to_string(st.builds) + " builds and " +
               std::to_string(remote.hits) + " remote hits, expected " +
               std::to_string(want_builds) + " and " + std::to_string(want_remote) +
               (remote.errors ? " (remote errors: " + std::to_string(remote.errors) + ")" : ""));
  std::printf("CHILD all_ms=%.4f first_ms=%.4f open_ms=%.4f cache_ms=%.4f prefetch_ms=%.4f "
              "acquire_ms=%.4f context_ms=%.4f remote_get_ms_max=%.4f remote_requests=%llu\n",
              all_ms, first_ms, open_ms, cache_ms, prefetch_ms, acquire_ms, context_ms,
              static_cast<double>(remote.get_ns_max) / 1e6, static_cast<unsigned long long>(remote.requests));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const auto t_main = bench::Clock::now();
  if (argc > 5 && std::string(argv[1]) == "--child" && std::string(argv[2]) == "breakdown") {
    int cc = 0;
    bench::gpu_context(&cc);
    const std::string url = argv[4];
    return bench::remote_breakdown_child(
        argv[3], [&](const std::string& d) { return open_tiers(d, url); }, std::stoul(argv[5]),
        static_cast<std::uint32_t>(cc));
  }
  if (argc > 5 && std::string(argv[1]) == "--child")
    return child(argv[2], argv[3], argv[4], std::stoul(argv[5]), t_main);
  if (argc < 2 || std::string(argv[1]).rfind("redis://", 0) != 0)
    bench::die("usage: bench_remote_startup redis://HOST:PORT [children=16] [specs=12] [cold_reps=2]");
  const std::string url = argv[1];
  const int children = argc > 2 ? std::atoi(argv[2]) : 16;
  const std::size_t nspecs = argc > 3 ? std::stoul(argv[3]) : 12;
  const int cold_reps = argc > 4 ? std::atoi(argv[4]) : 2;
  if (children < 1 || cold_reps < 1 || cold_reps > 14) bench::die("children >= 1, 1 <= cold_reps <= 14");
  int cc = 0;
  bench::gpu_context(&cc);  // exits with the driver's error without a GPU
  const auto root = bench::bench_dir("remote_startup");
  const auto dir = [&](const std::string& name) { return (root / name).string(); };
  const auto args = [&](const std::string& state, const std::string& d, int db) {
    return state + " " + d + " " + url + "/" + std::to_string(db) + " " + std::to_string(nspecs);
  };
  std::map<std::string, std::map<std::string, std::vector<double>>> runs;
  // cold: nothing anywhere; repetition 0 leaves its local store and db 2 warm.
  for (int r = 0; r < cold_reps; ++r)
    bench::run_self_child("", args("cold", dir("cold" + std::to_string(r)), 2 + r), runs["cold"]);
  for (int i = 0; i < children; ++i) {
    bench::run_self_child("", args("warm", dir("cold0"), 2), runs["warm"]);
    bench::run_self_child("", args("remote", dir("remote" + std::to_string(i)), 2), runs["remote"]);
    bench::run_self_child("", args("remote_single", dir("single" + std::to_string(i)), 2),
                          runs["remote_single"]);
  }
  std::printf("%zu default specs on sm_%d, remote %s\n", std::min(nspecs, bench::defaults().size()),
              cc, url.c_str());
  for (const char* state : {"warm", "remote", "remote_single", "cold"}) {
    auto& s = runs[state];
    bench::print_percentiles((std::string(state) + ": all ready").c_str(), s["all_ms"], "ms");
    bench::print_percentiles((std::string(state) + ": the first ready").c_str(), s["first_ms"], "ms");
  }
  // Where a start-up's time goes, phase by phase (from the tier stack's open to the last bind).
  for (const char* state : {"warm", "remote"})
    for (const char* phase : {"open_ms", "cache_ms", "prefetch_ms", "acquire_ms"})
      bench::print_percentiles((std::string(state) + ": " + phase).c_str(), runs[state][phase], "ms");
  bench::print_percentiles("remote: slowest remote get per process", runs["remote"]["remote_get_ms_max"], "ms");
  std::printf("round trips to Redis per start-up: remote %.0f, remote_single %.0f\n",
              bench::median(runs["remote"]["remote_requests"]),
              bench::median(runs["remote_single"]["remote_requests"]));
  bench::print_percentiles("context creation (apart)", runs["warm"]["context_ms"], "ms");
  bench::run_remote_breakdown(root, url + "/2", nspecs, std::min(children, 5));
  const double warm = bench::median(runs["warm"]["all_ms"]);
  const double remote = bench::median(runs["remote"]["all_ms"]);
  const double single = bench::median(runs["remote_single"]["all_ms"]);
  const double cold = bench::median(runs["cold"]["all_ms"]);
  std::printf("RESULT warm_ms_p50=%.3f remote_ms_p50=%.3f remote_single_ms_p50=%.3f cold_ms_p50=%.1f "
              "remote_over_warm=%.2f single_over_warm=%.2f cold_over_warm=%.1f "
              "goal_remote_under_2x=%s specs=%zu children=%d\n",
              warm, remote, single, cold, remote / warm, single / warm, cold / warm,
              remote < 2 * warm ? "yes" : "no", std::min(nspecs, bench::defaults().size()), children);
  std::error_code ec;
  if (!std::getenv("CCCL_CACHE_BENCH_DIR")) std::filesystem::remove_all(root, ec);
  return 0;
}
