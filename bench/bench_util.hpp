// Small helpers shared by the benchmarks: statistics, checks, random inputs, CUDA-event
// timing, temp store, context.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/store.hpp"

namespace bench {

using Clock = std::chrono::steady_clock;

inline double ns_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

// Nearest-rank percentile of `v` (copied, sorted); p in [0, 100].
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto idx = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(idx, v.size() - 1)];
}
inline double median(const std::vector<double>& v) { return percentile(v, 50); }

inline void print_percentiles(const char* label, const std::vector<double>& v, const char* unit) {
  std::printf("%-44s P5 %9.3f  P25 %9.3f  P50 %9.3f  P75 %9.3f  P95 %9.3f %s (n=%zu)\n", label,
              percentile(v, 5), percentile(v, 25), percentile(v, 50), percentile(v, 75),
              percentile(v, 95), unit, v.size());
}

[[noreturn]] inline void die(const std::string& what) {
  std::fprintf(stderr, "bench: %s\n", what.c_str());
  std::exit(2);
}

inline void check_cu(CUresult rc, const char* what) {
  if (rc != CUDA_SUCCESS) {
    const char* s = nullptr;
    cuGetErrorString(rc, &s);
    die(std::string(what) + ": " +
        (s ? std::string(s)
           : "CUresult " + std::to_string(int(rc)) + " (no usable GPU or driver: run it on the GPU machine)"));
  }
}

inline void check_rt(cudaError_t e, const char* what) {
  if (e != cudaSuccess) die(std::string(what) + ": " + cudaGetErrorString(e));
}
// Either status as its own check (for benchmarks that call the driver and the runtime).
inline void check(CUresult rc, const char* what) { check_cu(rc, what); }
inline void check(cudaError_t e, const char* what) { check_rt(e, what); }

// SplitMix64: the next pseudo-random value of the sequence `s` advances through.
inline std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The top 53 bits of `r` as a double in [0, 1).
inline double unit_double(std::uint64_t r) { return static_cast<double>(r >> 11) * 0x1.0p-53; }

// n keys from splitmix(seed): floats uniform in [-1e6, 1e6) (with CCCL_CACHE_BENCH_KEYS=unit
// in [0, 1), the distribution of CuPy's and the reference benchmarks' `rng.random`: a
// radix sort's time depends on it), integers the value's low bytes.
template <class K>
std::vector<K> random_keys(std::uint64_t n, std::uint64_t& seed) {
  static const bool unit = [] {
    const char* v = std::getenv("CCCL_CACHE_BENCH_KEYS");
    return v != nullptr && std::string(v) == "unit";
  }();
  std::vector<K> keys(n);
  for (auto& k : keys) {
    const std::uint64_t r = splitmix(seed);
    if constexpr (std::is_floating_point_v<K>)
      k = static_cast<K>(unit ? unit_double(r) : unit_double(r) * 2e6 - 1e6);
    else
      k = static_cast<K>(r);
  }
  return keys;
}

// n keys in runs of random length in [1, max_run], a new key per run.
template <class K>
std::vector<K> run_keys(std::uint64_t n, std::uint64_t max_run, std::uint64_t& seed) {
  std::vector<K> keys(n);
  std::uint64_t i = 0, k = 0;
  while (i < n) {
    const std::uint64_t len = 1 + splitmix(seed) % max_run;
    ++k;
    for (std::uint64_t j = 0; j < len && i < n; ++j) keys[i++] = static_cast<K>(k);
  }
  return keys;
}

// Repetitions for n items: `small` up to 2^20, `mid` up to 2^24, `large` above.
inline int reps_for(std::uint64_t n, int small = 100, int mid = 30, int large = 11) {
  return n <= (1u << 20) ? small : n <= (1u << 24) ? mid : large;
}

// Two CUDA events around work on a stream: start(), the work, then stop() waits for it
// and answers the milliseconds between them.
struct EventTimer {
  cudaEvent_t a{}, b{};
  EventTimer() {
    check_rt(cudaEventCreate(&a), "event");
    check_rt(cudaEventCreate(&b), "event");
  }
  ~EventTimer() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(cudaStream_t stream) { check_rt(cudaEventRecord(a, stream), "record"); }
  float stop(cudaStream_t stream) {
    check_rt(cudaEventRecord(b, stream), "record");
    check_rt(cudaEventSynchronize(b), "sync");
    float ms = 0;
    check_rt(cudaEventElapsedTime(&ms, a, b), "elapsed");
    return ms;
  }
};

// Median per-call microseconds of `ours` and `cub`, alternating within every repetition:
// each sample is a batch of back-to-back calls between two CUDA events on `s` (host
// dispatch included: what a caller pays), per-call time = elapsed / calls (200 calls up to
// 2^16 items, 20 up to 2^22, 3 above; 25 repetitions up to 2^24, 9 above), after one warm
// call of each.
template <class Ours, class Cub>
std::pair<double, double> alternating_medians(Ours ours, Cub cub, std::uint64_t n, cudaStream_t s) {
  const int calls = n <= (1u << 16) ? 200 : n <= (1u << 22) ? 20 : 3;
  const int reps = n <= (1u << 24) ? 25 : 9;
  EventTimer t;
  auto sample = [&](auto&& f) {
    t.start(s);
    for (int i = 0; i < calls; ++i) f();
    return 1000.0 * t.stop(s) / calls;
  };
  ours();
  cub();
  std::vector<double> o, c;
  for (int r = 0; r < reps; ++r) {
    o.push_back(sample(ours));
    c.push_back(sample(cub));
  }
  return {median(o), median(c)};  // reps is odd: the middle sample
}

// Medians per contender of rotating_times.
struct RotatingTimes {
  std::vector<double> gpu_ms, host_us;  // GPU time between events; host time of issuing
};

// `contenders` calls timed in turn: in repetition r, slot s runs contender (s + r) %
// contenders (no contender always first); call(who) issues its work on `stream`. CUDA
// events around each call; two warm-up repetitions, then the medians of `reps`.
template <class Call>
RotatingTimes rotating_times(int contenders, int reps, cudaStream_t stream, Call&& call) {
  EventTimer t;
  std::vector<std::vector<double>> gpu(contenders), host(contenders);
  for (int r = 0; r < reps + 2; ++r)
    for (int slot = 0; slot < contenders; ++slot) {
      const int who = (slot + r) % contenders;
      t.start(stream);
      const auto t0 = Clock::now();
      call(who);
      const double us = ns_since(t0) / 1e3;
      const float ms = t.stop(stream);
      if (r < 2) continue;
      gpu[who].push_back(ms);
      host[who].push_back(us);
    }
  RotatingTimes out;
  for (int who = 0; who < contenders; ++who) {
    out.gpu_ms.push_back(median(gpu[who]));
    out.host_us.push_back(median(host[who]));
  }
  return out;
}

inline std::vector<char> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::vector<std::string> read_lines(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// A file mapped read-only (`flags`: MAP_SHARED as LMDB maps, or MAP_PRIVATE); no heap
// is touched. With `touch`, every cache line is read once (as the store's checksum reads
// an entry before bind); without, the first reader faults the pages in and reads them
// from memory, as a store hit's get does.
inline const void* map_read_only(const std::filesystem::path& p, int flags = MAP_PRIVATE,
                                 bool touch = true) {
  const int fd = ::open(p.c_str(), O_RDONLY);
  if (fd < 0) die("open " + p.string());
  const auto size = static_cast<std::size_t>(std::filesystem::file_size(p));
  void* m = mmap(nullptr, size, PROT_READ, flags, fd, 0);
  ::close(fd);
  if (m == MAP_FAILED) die("mmap " + p.string());
  volatile unsigned sum = 0;
  for (std::size_t i = 0; touch && i < size; i += 64)
    sum = sum + static_cast<const unsigned char*>(m)[i];
  return m;
}

// The bare driver work of an acquisition: load the cubin into the current context
// (module API) and resolve and load every kernel.
inline CUmodule load_module(const void* image, const std::vector<std::string>& names) {
  CUmodule mod = nullptr;
  check_cu(cuModuleLoadData(&mod, image), "cuModuleLoadData");
  for (const auto& name : names) {
    CUfunction fn = nullptr;
    check_cu(cuModuleGetFunction(&fn, mod, name.c_str()), "cuModuleGetFunction");
    check_cu(cuFuncLoad(fn), "cuFuncLoad");
  }
  return mod;
}

// Device 0's primary context, made current. Exits when there is no GPU.
inline CUcontext gpu_context(int* cc = nullptr) {
  check_cu(cuInit(0), "cuInit");
  CUdevice dev = 0;
  check_cu(cuDeviceGet(&dev, 0), "cuDeviceGet");
  CUcontext ctx = nullptr;
  check_cu(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check_cu(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  if (cc) {
    int major = 0, minor = 0;
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    *cc = major * 10 + minor;
  }
  return ctx;
}

// Device 0 through the runtime, its primary context current (what bind uses); its cc.
inline std::uint32_t runtime_gpu() {
  check_rt(cudaSetDevice(0), "cudaSetDevice");
  check_rt(cudaFree(nullptr), "context");
  int major = 0, minor = 0;
  check_rt(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), "cc");
  check_rt(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0), "cc");
  return static_cast<std::uint32_t>(major * 10 + minor);
}

inline std::shared_ptr<cccl_cache::Store> open_store(const std::filesystem::path& dir) {
  cccl_cache::Config config = cccl_cache::Config::defaults();
  config.dir = dir;
  auto store = cccl_cache::Store::open(config);
  if (!store) die("store open: " + store.error().describe());
  return *store;
}

// A fresh directory under $TMPDIR, or the one named by $CCCL_CACHE_BENCH_DIR.
inline std::filesystem::path bench_dir(const char* name) {
  if (const char* d = std::getenv("CCCL_CACHE_BENCH_DIR")) {
    std::filesystem::create_directories(d);
    return std::filesystem::path(d) / name;
  }
  auto p = std::filesystem::temp_directory_path() /
           (std::string("cccl-cache-bench-") + name + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(p);
  return p;
}

// Runs this program again as a child ("<env_prefix>/proc/<pid>/exe --child <args>"),
// reads the "CHILD key=value ..." line it prints and appends each value to all[key].
// New processes are how first-in-process costs are measured.
inline void run_self_child(const std::string& env_prefix, const std::string& args,
                           std::map<std::string, std::vector<double>>& all) {
  const std::string cmd = env_prefix + "/proc/" + std::to_string(getpid()) + "/exe --child " + args;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) die("popen failed");
  char buf[4096];
  std::string text;
  while (fgets(buf, sizeof buf, p)) text += buf;
  if (pclose(p) != 0) die("child failed: " + text);
  const auto at = text.find("CHILD");
  if (at == std::string::npos) die("child printed no CHILD line: " + text);
  std::istringstream in(text.substr(at + 5));
  for (std::string kv; in >> kv;) {
    const auto eq = kv.find('=');
    all[kv.substr(0, eq)].push_back(std::stod(kv.substr(eq + 1)));
  }
}

}  // namespace bench
