// bench_remote_tier: the Redis remote tier on loopback (Google Benchmark, CPU only).
//
//   BM_RemoteHit/<bytes>       one GET: round trip, zstd decompression, envelope checksum
//   BM_RemoteHit/<bytes>/threads:N   the same from N threads (throughput: items/s, bytes/s)
//   BM_RemoteFetch12/<bytes>   12 entries in one MGET (a new node's start-up)
//   BM_RemotePublish/<bytes>   compression + SET NX of a new entry
//
// Entries of 80 KB and 400 KB (the sizes of lean and NVRTC-default cubins), filled
// with cubin-like bytes (zstd shrinks them about as much as real cubins, ~6-9x).
// Needs a server: CCCL_CACHE_BENCH_REDIS=redis://127.0.0.1:6399/0 (default), e.g.
//   redis-server --port 6399 --save '' --appendonly no &
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <cstring>

#include "cccl_cache/cache/redis_tier.hpp"

namespace {
using namespace cccl_cache;

std::string server_url() {
  const char* url = std::getenv("CCCL_CACHE_BENCH_REDIS");
  return url && *url ? url : "redis://127.0.0.1:6399/0";
}

RedisTier& tier() {
  static std::unique_ptr<RedisTier> t = [] {
    Config::Remote r;
    r.url = server_url();
    r.timeout_ms = 2000;
    auto opened = RedisTier::open(r);
    if (!opened || !(*opened)->ping()) {
      std::fprintf(stderr, "bench_remote_tier: no Redis at %s (set CCCL_CACHE_BENCH_REDIS)\n",
                   r.url.c_str());
      std::exit(2);
    }
    return std::move(*opened);
  }();
  return *t;
}

// Words drawn from a small vocabulary, as instruction streams repeat opcodes.
std::vector<std::byte> cubin_like(std::size_t size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> vocabulary(512);
  for (auto& w : vocabulary) w = rng();
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; i += 8) {
    std::uint64_t w = vocabulary[rng() % vocabulary.size()] ^ (rng() % 64 == 0 ? rng() : 0);
    std::memcpy(out.data() + i, &w, std::min<std::size_t>(8, size - i));
  }
  return out;
}

EntryMeta meta() {
  EntryMeta m;
  m.algorithm = "merge_sort";
  m.summary = "keys=float32 values=none compare=less offset=int64";
  m.toolchain = "bench";
  m.payload_format = 1;
  return m;
}

CacheKey key_of(std::uint64_t i, std::uint64_t size) { return CacheKey{Digest128{size, i}, 90}; }

void ensure(std::uint64_t i, std::size_t size) {
  (void)tier().put(key_of(i, size), meta(), cubin_like(size, i));
}

void BM_RemoteHit(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  if (state.thread_index() == 0) ensure(0, size);
  for (auto _ : state) {
    std::size_t got = 0;
    auto hit = tier().get_with(key_of(0, size), [&](const EntryMeta&, std::span<const std::byte> p) {
      got = p.size();
    });
    if (!hit || !*hit || got != size) state.SkipWithError("remote miss");
    benchmark::DoNotOptimize(got);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}
BENCHMARK(BM_RemoteHit)->Arg(80 << 10)->Arg(400 << 10)->UseRealTime();
BENCHMARK(BM_RemoteHit)->Arg(80 << 10)->Arg(400 << 10)->Threads(2)->Threads(4)->UseRealTime();

void BM_RemoteFetch12(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  std::vector<CacheKey> keys;
  for (std::uint64_t i = 0; i < 12; ++i) {
    ensure(100 + i, size);
    keys.push_back(key_of(100 + i, size));
  }
  for (auto _ : state) {
    std::size_t hits = tier().get_many(
        keys, [](std::size_t, const EntryMeta&, std::span<const std::byte>, std::string_view) {});
    if (hits != keys.size()) state.SkipWithError("remote miss");
  }
  state.SetItemsProcessed(state.iterations() * 12);
  state.SetBytesProcessed(state.iterations() * 12 * static_cast<std::int64_t>(size));
}
BENCHMARK(BM_RemoteFetch12)->Arg(80 << 10)->Arg(400 << 10)->UseRealTime();

void BM_RemotePublish(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  const auto payload = cubin_like(size, 7);
  std::uint64_t i = 1'000'000;
  for (auto _ : state) {
    auto r = tier().put(key_of(i++, size), meta(), payload);
    if (!r || !*r) state.SkipWithError("publish failed");
  }
  state.SetItemsProcessed(state.iterations());
  for (std::uint64_t k = 1'000'000; k < i; ++k) (void)tier().remove(key_of(k, size));
}
BENCHMARK(BM_RemotePublish)->Arg(80 << 10)->Arg(400 << 10)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
