// The README's main job: acquire a float32 merge sort through the default local
// cache (build on the first run, store hit afterwards) and, where a GPU exists,
// sort random keys with it and check the result against std::sort.
// Without a GPU it prewarms the store for --arch (default sm_90).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/store.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace ms = cccl_cache::algos::merge_sort;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The Executable needs its device's primary context current, which is what the CUDA
// runtime's cudaSetDevice does: an array library embedding us allocates and copies
// with the runtime (linked statically, it loads the driver at run time, as libalgos
// does), so that the program also starts on machines without an NVIDIA driver.
#define CHECK_CUDA(call)                                                               \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "demo: %s failed: %s\n", #call, cudaGetErrorString(e_));   \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)
#define CHECK_CU(call)                                                          \
  do {                                                                          \
    CUresult r_ = (call);                                                       \
    if (r_ != CUDA_SUCCESS) {                                                   \
      std::fprintf(stderr, "demo: %s failed: CUresult %d\n", #call, int(r_));  \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

int sort_on_gpu(const ms::Executable& exe, std::uint64_t n) {
  CHECK_CUDA(cudaSetDevice(exe.device()));
  std::vector<float> keys(n);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1e6f, 1e6f);
  for (auto& k : keys) k = dist(rng);
  std::size_t temp_bytes = 0;
  CHECK_CU(exe(nullptr, temp_bytes, nullptr, nullptr, nullptr, nullptr, n, nullptr));
  void* d_keys = nullptr;
  void* d_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&d_keys, std::max<std::size_t>(n * sizeof(float), 1)));
  CHECK_CUDA(cudaMalloc(&d_temp, std::max<std::size_t>(temp_bytes, 1)));
  CHECK_CUDA(cudaMemcpy(d_keys, keys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  auto t0 = Clock::now();
  CHECK_CU(exe(d_temp, temp_bytes, d_keys, nullptr, d_keys, nullptr, n, nullptr));
  CHECK_CUDA(cudaDeviceSynchronize());
  double sort_ms = ms_since(t0);
  std::vector<float> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), d_keys, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d_keys);
  cudaFree(d_temp);
  std::sort(keys.begin(), keys.end());
  bool ok = keys == out;
  std::printf("sorted %llu float32 keys on device %d in %.3f ms (first call, incl. sync): %s\n",
              static_cast<unsigned long long>(n), exe.device(), sort_ms,
              ok ? "matches std::sort" : "MISMATCH");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t n = 1'000'003;
  std::string arch = "sm_90";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--n" && i + 1 < argc) n = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--arch" && i + 1 < argc) arch = argv[++i];
    else {
      std::fprintf(stderr, "usage: cccl-cache-demo [--n ITEMS] [--arch sm_XY]\n");
      return 2;
    }
  }
  auto config = cccl_cache::Config::load();
  if (!config) return std::fprintf(stderr, "demo: %s\n", config.error().describe().c_str()), 3;
  auto store = cccl_cache::Store::open(*config);
  if (!store) return std::fprintf(stderr, "demo: %s\n", store.error().describe().c_str()), 3;
  std::printf("cache: %s\n", config->dir.c_str());
  cccl_cache::algos::AlgorithmCache cache(*store);
  ms::Spec spec;  // float32 keys, keys only, less, 64-bit offsets
  std::printf("spec: %s\n", ms::summary(spec).c_str());

  auto t0 = Clock::now();
  auto gpus = cccl_cache::algos::device_count();
  if (!gpus) return std::fprintf(stderr, "demo: %s\n", gpus.error().describe().c_str()), 1;
  if (*gpus == 0) {
    auto cc = cccl_cache::parse_cc(arch);
    if (!cc) return std::fprintf(stderr, "demo: bad --arch '%s'\n", arch.c_str()), 2;
    auto built = cache.prewarm(spec, *cc);
    if (!built) return std::fprintf(stderr, "demo: %s\n", built.error().describe().c_str()), 1;
    auto why = cccl_cache::algos::driver_status();
    std::printf("no GPU here (%s)\n", why ? "the driver sees no device" : why.error().message.c_str());
    std::printf("%s for sm_%u in %.1f ms (a GPU run would load it from the store)\n",
                *built ? "built and stored" : "already cached", *cc, ms_since(t0));
    return 0;
  }
  auto exe = cache.acquire(spec, 0);
  if (!exe) return std::fprintf(stderr, "demo: %s\n", exe.error().describe().c_str()), 1;
  auto s = cache.stats();
  std::printf("acquired for device 0 (sm_%u) in %.1f ms: %s\n", (*exe)->cc(), ms_since(t0),
              s.builds ? "built with NVRTC and stored" : "loaded from the store and bound");
  t0 = Clock::now();
  auto again = cache.acquire(spec, 0);
  std::printf("in-process repeat: %.3f us (same executable: %s)\n", ms_since(t0) * 1000.0,
              again && again->get() == exe->get() ? "yes" : "no");
  return sort_on_gpu(**exe, n);
}
