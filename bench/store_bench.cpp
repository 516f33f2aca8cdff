// bench_store: latency and throughput of the LMDB store (CPU only).
//
//   hit  latency, 400 KB and 4 KB payloads (LMDB lookup + checksum + copy out)
//   miss latency
//   put  latency, 400 KB and 4 KB payloads (one committed write txn each, synced)
//   hits/s with 1, 2 and 4 reader processes (400 KB and 4 KB payloads)
//
// Usage: bench_store [--dir PATH] [--seconds S]   (PATH defaults to a fresh temp dir)
// Prints percentiles in a Markdown table, ready for docs/benchmarks.md.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cccl_cache/cache/store.hpp"

namespace {
using namespace cccl_cache;
using Clock = std::chrono::steady_clock;

CacheKey key_of(std::uint64_t i) { return CacheKey{Digest128{0xbe7c4ull, i}, 90}; }

std::vector<std::byte> payload_of(std::uint64_t i, std::size_t size) {
  std::vector<std::byte> p(size);
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull + 1;
  for (auto& b : p) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = std::byte(x);
  }
  return p;
}

EntryMeta meta_of(std::uint64_t i) {
  EntryMeta m;
  m.algorithm = "merge_sort";
  m.summary = "bench entry " + std::to_string(i);
  m.toolchain = "bench";
  return m;
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_store: %s\n", what.c_str());
  std::exit(1);
}

template <class T>
T check(Result<T> r, const char* what) {
  if (!r) die(std::string(what) + ": " + r.error().describe());
  if constexpr (!std::is_void_v<T>) return std::move(*r);
}

struct Percentiles {
  double p50, p90, p99, mean;
  std::size_t n;
};

Percentiles summarize(std::vector<double> ns) {
  std::sort(ns.begin(), ns.end());
  auto at = [&](double q) {
    return ns[std::min(ns.size() - 1, std::size_t(q * double(ns.size())))];
  };
  double sum = 0;
  for (double v : ns) sum += v;
  return {at(0.50), at(0.90), at(0.99), sum / double(ns.size()), ns.size()};
}

std::string human(double ns) {
  char buf[32];
  if (ns >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f us", ns / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}

void row(const std::string& name, const Percentiles& p) {
  std::printf("| %s | %s | %s | %s | %s | %zu |\n", name.c_str(), human(p.p50).c_str(),
              human(p.p90).c_str(), human(p.p99).c_str(), human(p.mean).c_str(), p.n);
  std::fflush(stdout);
}

// Times `fn` `samples` times; each sample is the mean of `batch` calls.
template <class Fn>
Percentiles measure(std::size_t samples, std::size_t batch, Fn&& fn) {
  for (std::size_t i = 0; i < std::max<std::size_t>(samples / 10, 1) * batch; ++i)
    fn(i);  // warm up
  std::vector<double> ns;
  ns.reserve(samples);
  std::size_t call = 0;
  for (std::size_t s = 0; s < samples; ++s) {
    auto t0 = Clock::now();
    for (std::size_t b = 0; b < batch; ++b) fn(call++);
    ns.push_back(
        double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count()) /
        double(batch));
  }
  return summarize(std::move(ns));
}

Config bench_config(const std::filesystem::path& dir) {
  Config c;
  c.dir = dir;
  c.initial_map_size = 256ull << 20;
  c.log_level = "warn";
  return c;
}

// Each of `procs` forked readers does hits on `keys` keys for `seconds`; returns hits/s.
double hits_per_second(const Config& cfg, int procs, std::uint64_t first_key, int keys,
                       double seconds) {
  std::vector<std::pair<pid_t, int>> children;
  for (int p = 0; p < procs; ++p) {
    int fds[2];
    if (::pipe(fds) != 0) die("pipe");
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      auto store = check(Store::open(cfg), "open in reader");
      std::uint64_t hits = 0;
      const auto end = Clock::now() + std::chrono::duration<double>(seconds);
      for (std::uint64_t i = std::uint64_t(p); Clock::now() < end; ++i) {
        auto got = check(store->get(key_of(first_key + i % std::uint64_t(keys))), "get");
        if (!got) ::_exit(2);
        ++hits;
      }
      if (::write(fds[1], &hits, sizeof hits) != sizeof hits) ::_exit(3);
      ::_exit(0);
    }
    ::close(fds[1]);
    children.emplace_back(pid, fds[0]);
  }
  std::uint64_t total = 0;
  for (auto [pid, fd] : children) {
    std::uint64_t hits = 0;
    if (::read(fd, &hits, sizeof hits) != sizeof hits) die("a reader process failed");
    ::close(fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    total += hits;
  }
  return double(total) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path dir;
  double seconds = 2.0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc)
      dir = argv[++i];
    else if (a == "--seconds" && i + 1 < argc)
      seconds = std::atof(argv[++i]);
    else
      die("usage: bench_store [--dir PATH] [--seconds S]");
  }
  bool own_dir = dir.empty();
  if (own_dir) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "bench-store-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) die("mkdtemp");
    dir = std::filesystem::path(tmpl) / "cache";
  }
  const Config cfg = bench_config(dir);
  constexpr std::size_t kBig = 400 * 1024, kSmall = 4 * 1024;
  constexpr int kKeys = 64;
  {
    auto store = check(Store::open(cfg), "open");
    for (int i = 0; i < kKeys; ++i) {
      check(store->put(key_of(std::uint64_t(i)), meta_of(std::uint64_t(i)),
                       payload_of(std::uint64_t(i), kBig)),
            "put");
      check(store->put(key_of(1000 + std::uint64_t(i)), meta_of(std::uint64_t(i)),
                       payload_of(std::uint64_t(i), kSmall)),
            "put");
    }
    std::printf("| operation | P50 | P90 | P99 | mean | samples |\n|---|---|---|---|---|---|\n");
    row("hit, 400 KB payload (lookup + XXH3 check + copy)", measure(3000, 1, [&](std::size_t i) {
          if (!check(store->get(key_of(i % kKeys)), "get")) die("unexpected miss");
        }));
    row("hit, 4 KB payload", measure(3000, 16, [&](std::size_t i) {
          if (!check(store->get(key_of(1000 + i % kKeys)), "get")) die("unexpected miss");
        }));
    row("miss", measure(3000, 64, [&](std::size_t i) {
          if (check(store->get(key_of(500'000 + i)), "get")) die("unexpected hit");
        }));
    std::uint64_t next = 2'000'000;
    row("put, 400 KB payload (committed, synced)", measure(200, 1, [&](std::size_t) {
          ++next;
          check(store->put(key_of(next), meta_of(next), payload_of(7, kBig)), "put");
        }));
    row("put, 4 KB payload (committed, synced)", measure(300, 1, [&](std::size_t) {
          ++next;
          check(store->put(key_of(next), meta_of(next), payload_of(7, kSmall)), "put");
        }));
    check(store->flush(), "flush");
  }
  std::printf(
      "\n| reader processes | hits/s, 400 KB payload | hits/s, 4 KB payload |\n|---|---|---|\n");
  for (int procs : {1, 2, 4}) {
    const double big = hits_per_second(cfg, procs, 0, kKeys, seconds);
    const double small = hits_per_second(cfg, procs, 1000, kKeys, seconds);
    std::printf("| %d | %.0f | %.0f |\n", procs, big, small);
    std::fflush(stdout);
  }
  if (own_dir) std::filesystem::remove_all(dir.parent_path());
  return 0;
}
