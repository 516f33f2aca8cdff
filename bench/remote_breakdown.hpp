// A node's start-up from the remote tier, step by step (bench_remote_startup on the GPU
// machine, bench_remote_startup_cpu here): the calls the start-up makes, timed one by
// one on fresh stores in a child of their own, for the first N default specs for
// sm_<cc>. The per-entry path (each spec: one GET, one check, one backfill commit) and
// the batch of AlgorithmCache::prefetch (one MGET, the payloads handed over uncopied,
// every entry checked, the backfill, which a start-up commits in the background).
#pragma once

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/cache/tiers.hpp"
#include "default_specs.hpp"

namespace bench {

// Opens the tier stack over a directory (the local store there, the remote configured).
using OpenTiers = std::function<std::shared_ptr<cccl_cache::TierStack>(const std::string& dir)>;

// Each step (the CHILD line's key) and what it times.
inline constexpr std::pair<const char*, const char*> kRemoteSteps[] = {
    {"open_empty_ms", "tier stack on an empty directory (the store created)"},
    {"cache_ms", "AlgorithmCache constructed (toolchain fingerprints, driver entry points)"},
    {"keys_ms", "keys of the specs"},
    {"get_ms", "per entry: GETs, decompression, envelope checksums"},
    {"get_rtt_ms", "per entry: of which round trips"},
    {"check_ms", "per entry: record and kernel checks"},
    {"put_ms", "per entry: backfill commits (one each)"},
    {"contains_ms", "batch: local lookups (all miss)"},
    {"mget_ms", "batch: one MGET, decompression (parallel), envelope checksums"},
    {"mget_rtt_ms", "batch: of which the round trip (connection included)"},
    {"check_batch_ms", "batch: record and kernel checks of every entry"},
    {"put_many_ms", "batch: the backfill's one commit (in the background in a start-up)"},
};

// The steps once, over fresh stores under `root`; prints "CHILD step=ms ... payload_kb=".
inline int remote_breakdown_child(const std::string& root, const OpenTiers& open, std::size_t n,
                                  std::uint32_t cc) {
  namespace ca = cccl_cache::algos;
  std::vector<Entry> specs = defaults();
  specs.resize(std::min(n, specs.size()));
  std::map<std::string, double> ms;
  auto timed = [&](const char* step, auto&& fn) {
    const auto t = Clock::now();
    fn();
    ms[step] += ns_since(t) / 1e6;
  };
  std::shared_ptr<cccl_cache::TierStack> stack, batch;
  timed("open_empty_ms", [&] { stack = open(root + "/bd-single"); });
  timed("cache_ms", [&] { ca::AlgorithmCache cache(stack); });
  std::vector<cccl_cache::CacheKey> keys;
  timed("keys_ms", [&] {
    for (const auto& e : specs) keys.push_back(ca::cache_key(e.any, cc));
  });
  struct Got {
    cccl_cache::EntryMeta meta;
    std::vector<std::byte> payload;
    std::string signature;
  };
  cccl_cache::Tier& remote = *stack->remote();
  double bytes = 0;
  for (const auto& key : keys) {
    Got got;
    timed("get_ms", [&] {
      (void)remote.get_signed_with(key, [&](const cccl_cache::EntryMeta& m, std::span<const std::byte> p,
                                            std::string_view s) { got = {m, {p.begin(), p.end()}, std::string(s)}; });
    });
    bytes += static_cast<double>(got.payload.size());
    timed("check_ms", [&] {
      if (!ca::check_blob(got.payload, cc)) die("breakdown: an entry fails its checks");
    });
    timed("put_ms", [&] {
      if (!stack->local()->put_signed(key, got.meta, got.payload, got.signature)) die("breakdown: put");
    });
  }
  ms["get_rtt_ms"] = static_cast<double>(remote.stats().get_ns_total) / 1e6;
  batch = open(root + "/bd-batch");
  timed("contains_ms", [&] {
    for (const auto& key : keys)
      if (auto held = batch->local()->contains(key); !held || *held) die("breakdown: not an empty store");
  });
  struct Owned {
    cccl_cache::EntryMeta meta;
    cccl_cache::SharedBytes payload;
    std::string signature;
  };
  std::vector<Owned> owned(keys.size());
  timed("mget_ms", [&] {  // as fetch_many asks: the payloads handed over, uncopied
    batch->remote()->get_many_owned(keys, [&](std::size_t i, const cccl_cache::EntryMeta& m,
                                              cccl_cache::SharedBytes p, std::string_view s) {
      owned[i] = {m, std::move(p), std::string(s)};
    });
  });
  ms["mget_rtt_ms"] = static_cast<double>(batch->remote()->stats().get_ns_total) / 1e6;
  timed("check_batch_ms", [&] {
    for (const auto& o : owned)
      if (!ca::check_blob(o.payload.bytes, cc)) die("breakdown: an entry fails its checks");
  });
  std::vector<cccl_cache::PutItem> items;
  for (std::size_t i = 0; i < keys.size(); ++i)
    items.push_back({keys[i], &owned[i].meta, owned[i].payload.bytes, owned[i].signature});
  timed("put_many_ms", [&] {
    if (!batch->local()->put_many(items)) die("breakdown: put_many");
  });
  std::printf("CHILD");
  for (const auto& [step, what] : kRemoteSteps) std::printf(" %s=%.4f", step, ms[step]);
  std::printf(" payload_kb=%.1f\n", bytes / 1024);
  return 0;
}

// Runs `children` breakdown children (this program re-executed with "--child breakdown
// DIR URL N") and prints the P50 of each step.
inline void run_remote_breakdown(const std::filesystem::path& root, const std::string& url,
                                 std::size_t nspecs, int children) {
  std::map<std::string, std::vector<double>> parts;
  for (int i = 0; i < children; ++i) {
    const auto d = root / ("breakdown" + std::to_string(i));
    std::filesystem::create_directories(d);
    run_self_child("", "breakdown " + d.string() + " " + url + " " + std::to_string(nspecs), parts);
  }
  // Removed at the end: a removal's journal work would land on the next child's commit.
  for (int i = 0; i < children; ++i) std::filesystem::remove_all(root / ("breakdown" + std::to_string(i)));
  std::printf("remote start-up step by step (P50 of %d children, all %zu entries, %.0f KB of payload):\n",
              children, std::min(nspecs, defaults().size()), median(parts["payload_kb"]));
  for (const auto& [step, what] : kRemoteSteps)
    std::printf("  %-14s %8.3f ms  %s\n", step, median(parts[step]), what);
}

}  // namespace bench
