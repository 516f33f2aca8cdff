// bench_store_open_check: the cost of the structural check of data.mdb that every
// Store::open runs (integrity.hpp), on a store of 1,000 entries of 80 KB.
//
//   check   check_lmdb_file alone (pread walk of every tree, overflow headers, free list)
//   open    Store::open + destroy of a handle, the first in the process each time
//           (so the environment is opened, and the check run, every time)
//
// Usage: bench_store_open_check [--dir PATH] [--entries N] [--kb K] [--runs R]
// Prints percentiles (microseconds) in a Markdown table. The page cache is warm.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cccl_cache/cache/integrity.hpp"
#include "cccl_cache/cache/store.hpp"

namespace {
using namespace cccl_cache;
using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_store_open_check: %s\n", what.c_str());
  std::exit(1);
}

double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

void row(const char* what, const std::vector<double>& us) {
  std::printf("| %s | %.0f | %.0f | %.0f | %.0f |\n", what, pct(us, 0.5), pct(us, 0.9),
              pct(us, 0.99), *std::max_element(us.begin(), us.end()));
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path dir;
  std::uint64_t entries = 1000, kb = 80;
  int runs = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--dir")
      dir = argv[i + 1];
    else if (a == "--entries")
      entries = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--kb")
      kb = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--runs")
      runs = std::atoi(argv[i + 1]);
    else
      die("usage: bench_store_open_check [--dir PATH] [--entries N] [--kb K] [--runs R]");
  }
  if (dir.empty()) {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "bench-open-check-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) die("mkdtemp");
    dir = std::filesystem::path(tmpl) / "cache";
  }
  Config cfg = Config::defaults();
  cfg.dir = dir;
  cfg.log_level = "error";
  {
    auto store = Store::open(cfg);
    if (!store) die(store.error().describe());
    std::vector<std::byte> payload(kb * 1024);
    std::uint64_t n = (*store)->stats()->entries;
    for (std::uint64_t i = n; i < entries; ++i) {
      for (std::size_t j = 0; j < payload.size(); j += 64) payload[j] = std::byte(i + j);
      EntryMeta m;
      m.algorithm = "bench";
      m.summary = "entry " + std::to_string(i);
      if (auto r = (*store)->put(CacheKey{Digest128{0x0c4ec6ull, i}, 90}, m, payload); !r)
        die(r.error().describe());
    }
  }
  std::vector<double> check_us, open_us;
  LmdbCheck last;
  double check_cpu_us = 0;  // CPU time (user + system) of the checks: robust on a busy machine
  auto cpu_us = [] {
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) / 1e3;
  };
  for (int r = 0; r < runs; ++r) {
    const double c0 = cpu_us();
    auto t0 = Clock::now();
    auto c = check_lmdb_file(dir / "data.mdb");
    auto t1 = Clock::now();
    check_cpu_us += cpu_us() - c0;
    if (!c) die(c.error().describe());
    last = *c;
    check_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    t0 = Clock::now();
    {
      auto store = Store::open(cfg);
      if (!store) die(store.error().describe());
    }
    t1 = Clock::now();
    open_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  const auto* e = last.tree("entries");
  std::printf(
      "store: %llu entries of %llu KB, data.mdb %.1f MB, %llu reads per check, "
      "entries tree depth %u (%llu branch, %llu leaf, %llu overflow pages)\n\n",
      static_cast<unsigned long long>(entries), static_cast<unsigned long long>(kb),
      double(last.file_bytes) / 1e6, static_cast<unsigned long long>(last.reads), e ? e->depth : 0,
      static_cast<unsigned long long>(e ? e->branch_pages : 0),
      static_cast<unsigned long long>(e ? e->leaf_pages : 0),
      static_cast<unsigned long long>(e ? e->overflow_pages : 0));
  std::printf("| %d runs, us | P50 | P90 | P99 | max |\n|---|---|---|---|---|\n", runs);
  row("check_lmdb_file", check_us);
  row("Store::open + close (env opened, check included)", open_us);
  std::printf("\ncheck_lmdb_file CPU time, mean: %.0f us\n", check_cpu_us / runs);
  return 0;
}
