// The CPU side of a store hit, first in a NEW process: Store::open, then get (verify)
// and deserialize of a real merge sort build result (float32 keys, less, int64
// offsets, sm_90, ~82 KB), as AlgorithmCache does before bind. No GPU needed.
// The parent builds the entry once (NVRTC) and stores it, then re-executes itself as
// children, one mode after the other, interleaved:
//   pieces: Store::get, then deserialize(entry.payload), timed one by one
//   view:   as AlgorithmCache reads a hit: Store::get_payload_with, deserialize_view
//           (verified by the store) straight from the map in the callback
//   split:  view, after a miss of another key: the store's read path first without
//           this entry's data (what of the first get is the read path, what the entry)
//   cache:  AlgorithmCache::prewarm (a store hit: get + deserialize)
// pieces and view time the first cache key of the process (the toolchain fingerprint
// is computed then) on its own line; in cache mode AlgorithmCache's constructor has
// computed it (untimed, like the open). Each child then repeats its
// step 20 times (warm, median) for comparison. Set CCCL_CACHE_BENCH_DIR to keep the
// store (and skip the build) between runs.
// Usage: bench_store_first_hit [children_per_mode]   (children: --child MODE DIR)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/store.hpp"
#include "bench_util.hpp"

namespace ms = cccl_cache::algos::merge_sort;
namespace fs = std::filesystem;
using bench::Clock;

namespace {

constexpr std::uint32_t kCc = 90;

double us_since(Clock::time_point t0) { return bench::ns_since(t0) / 1e3; }

std::shared_ptr<cccl_cache::Store> open_store(const fs::path& dir) {
  cccl_cache::Config config = cccl_cache::Config::defaults();
  config.dir = dir;
  auto store = cccl_cache::Store::open(config);
  if (!store) bench::die("store open: " + store.error().describe());
  return *store;
}

// One acquisition step of `mode`; returns false on a miss or a bad entry.
bool step(const std::string& mode, cccl_cache::Store& store, const cccl_cache::CacheKey& key,
          std::map<std::string, double>* pieces) {
  if (mode == "pieces") {
    auto t0 = Clock::now();
    auto entry = store.get(key);
    if (pieces) (*pieces)["get_us"] = us_since(t0);
    if (!entry || !*entry) return false;
    t0 = Clock::now();
    auto r = cccl_cache::algos::deserialize<cccl_cache::algos::MergeSort>((*entry)->payload, kCc);
    if (pieces) (*pieces)["deserialize_us"] = us_since(t0);
    return r.has_value();
  }
  if (mode == "view" || mode == "split") {
    bool ok = false;  // what AlgorithmCache does before bind: a view, nothing copied
    auto t0 = Clock::now();
    auto hit = store.get_payload_with(key, [&](std::span<const std::byte> payload) {
      if (pieces) (*pieces)["get_us"] = us_since(t0);
      const auto t1 = Clock::now();
      ok = cccl_cache::algos::deserialize_view<cccl_cache::algos::MergeSort>(payload, kCc).has_value();
      if (pieces) (*pieces)["deserialize_us"] = us_since(t1);
    });
    return hit && *hit && ok;
  }
  bench::die("unknown mode " + mode);
}

int child(const std::string& mode, const fs::path& dir) {
  std::map<std::string, double> out;
  const ms::Spec spec;
  auto t0 = Clock::now();
  auto store = open_store(dir);
  out["open_us"] = us_since(t0);
  if (mode == "cache") {
    cccl_cache::algos::AlgorithmCache cache(store);
    t0 = Clock::now();
    auto built = cache.prewarm(spec, kCc);
    out["first_us"] = us_since(t0);
    if (!built || *built) bench::die("child: not a store hit");
    std::vector<double> warm;
    for (int i = 0; i < 20; ++i) {  // a fresh AlgorithmCache each time: no in-process layer
      cccl_cache::algos::AlgorithmCache again(store);
      t0 = Clock::now();
      auto b = again.prewarm(spec, kCc);
      warm.push_back(us_since(t0));
      if (!b || *b) bench::die("child: not a store hit");
    }
    out["warm_us"] = bench::median(warm);
  } else {
    if (mode == "split") {  // a miss first: the store's read path without this entry's data
      ms::Spec other;
      other.comparator = cccl_cache::algos::Comparator::greater();
      const auto other_key = ms::cache_key(other, kCc);
      t0 = Clock::now();
      auto miss = store->get_payload_with(other_key, [](std::span<const std::byte>) {});
      out["miss_first_us"] = us_since(t0);
      if (!miss || *miss) bench::die("child: expected a miss");
    }
    t0 = Clock::now();
    const auto key = ms::cache_key(spec, kCc);  // first in process: the toolchain fingerprint
    out["key_us"] = us_since(t0);
    if (!step(mode, *store, key, &out)) bench::die("child: miss or bad entry");
    out["first_us"] = us_since(t0);
    std::vector<double> warm;
    for (int i = 0; i < 20; ++i) {
      t0 = Clock::now();
      if (!step(mode, *store, ms::cache_key(spec, kCc), nullptr))
        bench::die("child: miss or bad entry");
      warm.push_back(us_since(t0));
    }
    out["warm_us"] = bench::median(warm);
  }
  std::printf("CHILD");
  for (const auto& [k, v] : out) std::printf(" %s=%.3f", k.c_str(), v);
  std::printf("\n");
  return 0;
}

void run_child(const std::string& mode, const fs::path& dir,
               std::map<std::string, std::vector<double>>& all) {
  bench::run_self_child("", mode + " '" + dir.string() + "'", all);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--child") return child(argv[2], argv[3]);
  const int per_mode = argc > 1 ? std::atoi(argv[1]) : 30;
  fs::path dir;
  if (const char* d = std::getenv("CCCL_CACHE_BENCH_DIR")) {
    dir = fs::path(d) / "first-hit";
  } else {
    dir = fs::temp_directory_path() / ("cccl-cache-bench-first-hit-" + std::to_string(getpid()));
  }
  fs::create_directories(dir);
  const ms::Spec spec;
  std::size_t payload_size = 0;
  {
    auto store = open_store(dir);
    cccl_cache::algos::AlgorithmCache cache(store);
    auto built = cache.prewarm(spec, kCc);  // builds once, then finds it stored
    if (!built) bench::die("build: " + built.error().describe());
    auto entry = store->peek(ms::cache_key(spec, kCc));
    if (!entry || !*entry) bench::die("the entry was not stored");
    payload_size = (*entry)->payload.size();
  }
  std::vector<std::string> modes = {"pieces", "view", "split", "cache"};
  std::map<std::string, std::map<std::string, std::vector<double>>> results;
  for (int round = 0; round < per_mode; ++round)
    for (const auto& mode : modes) run_child(mode, dir, results[mode]);

  std::printf(
      "first store hit in a new process, CPU side; payload %zu bytes; %d children per "
      "mode, interleaved\n",
      payload_size, per_mode);
  for (const auto& mode : modes) {
    auto& r = results[mode];
    bench::print_percentiles((mode + ": store open").c_str(), r["open_us"], "us");
    if (mode != "cache")  // the cache computes its key inside prewarm_merge_sort
      bench::print_percentiles((mode + ": cache key (first)").c_str(), r["key_us"], "us");
    if (mode == "split")
      bench::print_percentiles("split: a miss first (other key)", r["miss_first_us"], "us");
    if (mode == "pieces" || mode == "view" || mode == "split") {
      bench::print_percentiles((mode + ": get (first)").c_str(), r["get_us"], "us");
      bench::print_percentiles((mode + ": deserialize (first)").c_str(), r["deserialize_us"], "us");
    }
    bench::print_percentiles((mode + ": key + get + deserialize, first").c_str(), r["first_us"],
                             "us");
    bench::print_percentiles((mode + ": same, warm (median of 20)").c_str(), r["warm_us"], "us");
  }
  std::printf("RESULT");
  for (const auto& mode : modes)
    std::printf(" %s_first_us=%.1f %s_warm_us=%.1f", mode.c_str(),
                bench::median(results[mode]["first_us"]), mode.c_str(),
                bench::median(results[mode]["warm_us"]));
  std::printf("\n");
  if (!std::getenv("CCCL_CACHE_BENCH_DIR")) fs::remove_all(dir);
  return 0;
}
