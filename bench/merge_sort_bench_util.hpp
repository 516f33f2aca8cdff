// Small helpers shared by the merge-sort benchmarks (statistics, temp store, context).
#pragma once

#include <cuda.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
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
    die(std::string(what) + ": " + (s ? s : "?"));
  }
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
