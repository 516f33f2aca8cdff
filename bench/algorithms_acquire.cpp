// Every algorithm's acquisition and query cost on the GPU machine, side by side in one run:
//
//   cold start: a NEW process (this program re-executed) acquiring the wave-1 default
//     specs (reduce plus and maximum, inclusive/exclusive scan, unary negate and binary
//     plus transform and radix sort over float32 and int64, plus a float32 merge sort:
//     15 executables) from a warm store, from a current context (created first, timed
//     apart) until every executable is ready; also its first acquisition alone.
//     Algorithms added later (bench::later_specs: segmented reduce, unique_by_key, select,
//     three-way partition, histogram_even, binary search) are in the other
//     measurements only.
//   query: for each spec with a temp-storage query, the P50 ns of exe(nullptr, bytes,
//     ...) over trials of `queries` calls, a fresh executable (built and bound in this
//     process) and a store-loaded one (a second AlgorithmCache on the same store)
//     alternating, and the loaded/fresh ratio.
//   build: each spec's first acquisition in this process (NVRTC + nvJitLink build,
//     store write, bind).
//   hit: each spec acquired by a new AlgorithmCache in this (warm) process: key, store
//     read, checks, view and bind, median of 11.
//
// Usage: bench_algorithms_acquire [children=16] [trials=51] [queries=20000]
// Output: RESULT lines (build_<spec>_ms ..., cold_start_all_ms_p50 ...,
// query_<spec>_p50_ns=fresh/loaded, hit_<spec>_ms ...).
#include <cuda.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "bench_util.hpp"
#include "default_specs.hpp"

namespace ca = cccl_cache::algos;
using bench::defaults;
using bench::Entry;
using bench::g_sink;

namespace {

// The child: from a current context to every default spec acquired from the store in `dir`.
// The clock starts once the process has a current context, as an array library's
// process has before it asks for an algorithm; context creation is reported apart.
int child(const std::string& dir, bench::Clock::time_point t_main) {
  bench::gpu_context();
  const double context_ms = bench::ns_since(t_main) / 1e6;
  const auto t0 = bench::Clock::now();
  auto store = bench::open_store(dir);
  ca::AlgorithmCache cache(store);
  std::vector<Entry> specs = defaults();
  double first_ms = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    (void)specs[i].acquire(cache);
    if (i == 0) first_ms = bench::ns_since(t0) / 1e6;
  }
  const double all_ms = bench::ns_since(t0) / 1e6;
  if (cache.stats().builds != 0) bench::die("the child built: the store was not warm");
  std::printf("CHILD all_ms=%.4f first_ms=%.4f context_ms=%.4f hits=%llu\n", all_ms, first_ms, context_ms,
              static_cast<unsigned long long>(cache.stats().store_hits));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const auto t0 = bench::Clock::now();
  if (argc > 2 && std::string(argv[1]) == "--child") return child(argv[2], t0);
  const int children = argc > 1 ? std::atoi(argv[1]) : 16;
  const int trials = argc > 2 ? std::atoi(argv[2]) : 51;
  const int queries = argc > 3 ? std::atoi(argv[3]) : 20000;
  int cc = 0;
  bench::gpu_context(&cc);
  const auto dir = bench::bench_dir("algorithms");
  auto store = bench::open_store(dir);
  std::vector<Entry> specs = defaults();
  const std::size_t cold_start_specs = specs.size();
  for (Entry& e : bench::later_specs()) specs.push_back(std::move(e));

  // Fresh: built and bound in this process (and stored: the store is then warm).
  ca::AlgorithmCache fresh_cache(store);
  std::vector<std::function<void(std::uint64_t)>> fresh, loaded;
  // Each fresh acquisition times the build (NVRTC + nvJitLink), its store write and bind.
  std::printf("RESULT");
  for (auto& e : specs) {
    const auto a = bench::Clock::now();
    fresh.push_back(e.acquire(fresh_cache));
    std::printf(" build_%s_ms=%.1f", e.name.c_str(), bench::ns_since(a) / 1e6);
  }
  std::printf("\n");
  ca::AlgorithmCache loaded_cache(store);
  for (auto& e : specs) loaded.push_back(e.acquire(loaded_cache));
  if (loaded_cache.stats().builds != 0) bench::die("the loaded cache built");
  std::printf("%zu specs on sm_%d: fresh builds %llu, loaded store hits %llu\n", specs.size(), cc,
              static_cast<unsigned long long>(fresh_cache.stats().builds),
              static_cast<unsigned long long>(loaded_cache.stats().store_hits));

  // Cold start in new processes.
  std::map<std::string, std::vector<double>> child_stats;
  for (int i = 0; i < children; ++i) bench::run_self_child("", dir.string(), child_stats);
  bench::print_percentiles("cold start: all ready", child_stats["all_ms"], "ms");
  bench::print_percentiles("cold start: the first ready", child_stats["first_ms"], "ms");
  bench::print_percentiles("context creation (apart)", child_stats["context_ms"], "ms");
  std::printf("RESULT cold_start_all_ms_p50=%.4f cold_start_first_ms_p50=%.4f context_ms_p50=%.4f "
              "specs=%zu children=%d\n",
              bench::median(child_stats["all_ms"]), bench::median(child_stats["first_ms"]),
              bench::median(child_stats["context_ms"]), cold_start_specs, children);

  // Query P50 per spec: fresh and loaded alternating, 2,048 items.
  std::printf("RESULT");
  for (std::size_t s = 0; s < specs.size(); ++s) {
    if (!fresh[s]) continue;
    std::vector<double> f, l;
    for (int t = 0; t < trials; ++t) {
      for (int who = 0; who < 2; ++who) {
        const auto& q = ((t + who) % 2 == 0) ? fresh[s] : loaded[s];
        const auto a = bench::Clock::now();
        for (int i = 0; i < queries; ++i) q(2048);
        (((t + who) % 2 == 0) ? f : l).push_back(bench::ns_since(a) / queries);
      }
    }
    std::printf(" query_%s_p50_ns=%.2f/%.2f", specs[s].name.c_str(), bench::median(f),
                bench::median(l));
  }
  std::printf(" (fresh/loaded)\n");

  // A warm process's store hit per spec (each from a new cache: no in-process hit).
  std::printf("RESULT");
  for (auto& e : specs) {
    std::vector<double> ms;
    for (int i = 0; i < 11; ++i) {
      ca::AlgorithmCache c(store);
      const auto a = bench::Clock::now();
      (void)e.acquire(c);
      ms.push_back(bench::ns_since(a) / 1e6);
    }
    std::printf(" hit_%s_ms=%.4f", e.name.c_str(), bench::median(ms));
  }
  std::printf("\n");
  std::printf("sink %zu\n", g_sink);
  return 0;
}
