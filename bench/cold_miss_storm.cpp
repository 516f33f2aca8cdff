// The cold-miss storm against one build (CPU only: NVRTC builds, no GPU). N processes
// start at once (forked, each with its store open and its AlgorithmCache made, then
// released together) and all miss one spec on a cold cache; the wall time until every
// one of them has the build result is set against one process building it alone.
//
//   alone:  1 process, an empty cache directory.
//   host:   N processes, one empty cache directory (the host claim: one builds, the
//           others wait on its flock and load the entry).
//   hosts:  N processes split over 2 empty cache directories (two simulated hosts) and
//           one Redis (the cluster lease: one host builds, the other polls the remote);
//           only with --redis URL. Each repetition uses its own Redis database
//           (db 1, 2, ...), which must start empty.
//
// Each repetition uses fresh directories (a cold key). Prints the percentiles of each
// scenario's wall time over the repetitions, how many builds ran (1 expected per storm)
// and the waits the store counted, and a RESULT line with the P50 ratios.
//
// Usage: bench_cold_miss_storm [--procs N=16] [--reps R=3] [--cc 90] [--redis redis://host:port]
//                              [--remote-timeout-ms MS]
// bench/cold_miss_storm.sh starts a local redis-server and runs it with --redis.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"

namespace ca = cccl_cache::algos;

namespace {

struct Options {
  int procs = 16;
  int reps = 3;
  std::uint32_t cc = 90;
  std::string redis;       // base URL without a database, e.g. redis://127.0.0.1:6379
  int remote_timeout_ms = 0;  // 0: the config's default
};

struct Outcome {
  double wall_ms = 0;         // release to the last process holding the result
  double first_ms = 0;        // release to the first
  int builds = 0;             // processes that built
  int failed = 0;             // processes that failed
};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             bench::Clock::now().time_since_epoch())
      .count();
}

cccl_cache::Config config_for(const std::filesystem::path& dir, const std::string& remote,
                              const Options& o) {
  cccl_cache::Config c = cccl_cache::Config::defaults();
  c.dir = dir;
  c.remote.url = remote;
  if (o.remote_timeout_ms > 0) c.remote.timeout_ms = static_cast<std::uint32_t>(o.remote_timeout_ms);
  return c;
}

// Forks one process per entry of `dirs` (its cache directory) with `remote`, releases
// them together and collects when each held the build result and whether it built.
Outcome storm(const std::vector<std::filesystem::path>& dirs, const std::string& remote,
              const Options& o) {
  int go[2], results[2];
  if (::pipe(go) != 0 || ::pipe(results) != 0) bench::die("pipe");
  std::vector<pid_t> pids;
  for (const auto& dir : dirs) {
    const pid_t pid = ::fork();
    if (pid < 0) bench::die("fork");
    if (pid == 0) {
      ::close(go[1]);
      ::close(results[0]);
      int rc = 3;
      {  // destroyed before _exit: the store flushes its counters (waits)
        auto store = cccl_cache::Store::open(config_for(dir, remote, o));
        if (store) {
          ca::AlgorithmCache cache(*store);
          char byte = 0;
          (void)!::read(go[0], &byte, 1);  // returns at EOF: the parent closed the pipe
          auto built = cache.prewarm(ca::merge_sort::Spec{}, o.cc);
          const std::int64_t done = now_ns();
          char line[96];
          const int n = std::snprintf(line, sizeof line, "%lld %d\n", static_cast<long long>(done),
                                      built ? (*built ? 1 : 0) : -1);
          (void)!::write(results[1], line, static_cast<std::size_t>(n));  // < PIPE_BUF: atomic
          if (!built) std::fprintf(stderr, "storm: %s\n", built.error().describe().c_str());
          rc = built ? 0 : 4;
        }
      }
      ::_exit(rc);
    }
    pids.push_back(pid);
  }
  ::close(go[0]);
  ::close(results[1]);
  ::usleep(300'000);  // every process has opened its store and waits at the barrier
  const std::int64_t released = now_ns();
  ::close(go[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(results[0], buf, sizeof buf)) > 0;) text.append(buf, std::size_t(n));
  ::close(results[0]);
  Outcome out;
  for (pid_t pid : pids) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++out.failed;
  }
  std::vector<double> ready;
  std::size_t pos = 0;
  while (pos < text.size()) {
    long long done = 0;
    int built = 0;
    if (std::sscanf(text.c_str() + pos, "%lld %d", &done, &built) != 2) break;
    ready.push_back(static_cast<double>(done - released) / 1e6);
    out.builds += built == 1;
    pos = text.find('\n', pos);
    if (pos == std::string::npos) break;
    ++pos;
  }
  if (ready.size() != dirs.size()) ++out.failed;
  out.wall_ms = ready.empty() ? 0 : *std::max_element(ready.begin(), ready.end());
  out.first_ms = ready.empty() ? 0 : *std::min_element(ready.begin(), ready.end());
  return out;
}

void print_waits(const char* label, const std::filesystem::path& dir) {
  auto store = cccl_cache::Store::open(config_for(dir, "", Options{}));
  if (!store) return;
  auto s = (*store)->stats();
  if (!s) return;
  std::printf("  %s: host-claim waits %llu, lease waits %llu, past the bound %llu\n", label,
              static_cast<unsigned long long>(s->host_claim_waits),
              static_cast<unsigned long long>(s->cluster_lease_waits),
              static_cast<unsigned long long>(s->wait_bound_builds));
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!v) bench::die("missing value after " + a);
    if (a == "--procs") o.procs = std::atoi(v);
    else if (a == "--reps") o.reps = std::atoi(v);
    else if (a == "--cc") o.cc = static_cast<std::uint32_t>(std::atoi(v));
    else if (a == "--redis") o.redis = v;
    else if (a == "--remote-timeout-ms") o.remote_timeout_ms = std::atoi(v);
    else bench::die("unknown option " + a);
    ++i;
  }
  if (o.procs < 2 || o.reps < 1 || o.reps > 15) bench::die("need --procs >= 2 and 1 <= --reps <= 15");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const auto root = bench::bench_dir("storm");
  std::map<std::string, std::vector<double>> wall, first;
  std::map<std::string, int> builds, failed;
  for (int rep = 0; rep < o.reps; ++rep) {
    const auto base = root / ("rep" + std::to_string(rep));
    const auto run = [&](const std::string& name, std::vector<std::filesystem::path> dirs,
                         const std::string& remote) {
      const Outcome r = storm(dirs, remote, o);
      wall[name].push_back(r.wall_ms);
      first[name].push_back(r.first_ms);
      builds[name] += r.builds;
      failed[name] += r.failed;
      std::printf("rep %d %-6s wall %9.1f ms  first ready %9.1f ms  builds %d  failed %d\n", rep,
                  name.c_str(), r.wall_ms, r.first_ms, r.builds, r.failed);
      std::fflush(stdout);
    };
    run("alone", {base / "alone"}, "");
    run("host", std::vector<std::filesystem::path>(std::size_t(o.procs), base / "host"), "");
    print_waits("host", base / "host");
    if (!o.redis.empty()) {
      std::vector<std::filesystem::path> dirs;
      for (int i = 0; i < o.procs; ++i) dirs.push_back(base / (i % 2 ? "hostB" : "hostA"));
      run("hosts", dirs, o.redis + "/" + std::to_string(rep + 1));
      print_waits("host A", base / "hostA");
      print_waits("host B", base / "hostB");
    }
  }
  std::printf("\nmerge_sort float32 for sm_%u, %d processes, %d repetitions\n", o.cc, o.procs,
              o.reps);
  for (const auto& [name, v] : wall) {
    bench::print_percentiles((name + ": wall time to all ready").c_str(), v, "ms");
    bench::print_percentiles((name + ": the first ready").c_str(), first[name], "ms");
    std::printf("  %s: %d builds over %zu storms, %d failed processes\n", name.c_str(),
                builds[name], v.size(), failed[name]);
  }
  const double alone = bench::median(wall["alone"]);
  std::printf("RESULT alone_ms_p50=%.1f host_ms_p50=%.1f host_ratio=%.2f", alone,
              bench::median(wall["host"]), bench::median(wall["host"]) / alone);
  if (!o.redis.empty())
    std::printf(" hosts_ms_p50=%.1f hosts_ratio=%.2f", bench::median(wall["hosts"]),
                bench::median(wall["hosts"]) / alone);
  std::printf(" procs=%d reps=%d\n", o.procs, o.reps);
  std::error_code ec;
  if (!std::getenv("CCCL_CACHE_BENCH_DIR")) std::filesystem::remove_all(root, ec);
  int bad = 0;
  for (const auto& [name, n] : failed) bad += n;
  return bad ? 1 : 0;
}
