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

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/store.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace ms = cccl_cache::algos::merge_sort;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int gpu_count() {
  int n = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS) return 0;
  return n;
}

#define CHECK_CU(call)                                                       \
  do {                                                                       \
    CUresult r_ = (call);                                                    \
    if (r_ != CUDA_SUCCESS) {                                                \
      const char* s_ = nullptr;                                              \
      cuGetErrorString(r_, &s_);                                             \
      std::fprintf(stderr, "demo: %s failed: %s\n", #call, s_ ? s_ : "?");   \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int sort_on_gpu(const ms::Executable& exe, std::uint64_t n) {
  CUcontext ctx = nullptr;
  CUdevice dev = 0;
  CHECK_CU(cuDeviceGet(&dev, exe.device()));
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  std::vector<float> keys(n);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1e6f, 1e6f);
  for (auto& k : keys) k = dist(rng);
  std::size_t temp_bytes = 0;
  CHECK_CU(exe(nullptr, temp_bytes, nullptr, nullptr, nullptr, nullptr, n, nullptr));
  CUdeviceptr d_keys = 0, d_temp = 0;
  CHECK_CU(cuMemAlloc(&d_keys, std::max<std::size_t>(n * sizeof(float), 1)));
  CHECK_CU(cuMemAlloc(&d_temp, std::max<std::size_t>(temp_bytes, 1)));
  CHECK_CU(cuMemcpyHtoD(d_keys, keys.data(), n * sizeof(float)));
  auto* p = reinterpret_cast<void*>(d_keys);
  auto t0 = Clock::now();
  CHECK_CU(exe(reinterpret_cast<void*>(d_temp), temp_bytes, p, nullptr, p, nullptr, n, nullptr));
  CHECK_CU(cuCtxSynchronize());
  double sort_ms = ms_since(t0);
  std::vector<float> out(n);
  CHECK_CU(cuMemcpyDtoH(out.data(), d_keys, n * sizeof(float)));
  cuMemFree(d_keys);
  cuMemFree(d_temp);
  cuDevicePrimaryCtxRelease(dev);
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
  if (gpu_count() == 0) {
    auto cc = cccl_cache::parse_cc(arch);
    if (!cc) return std::fprintf(stderr, "demo: bad --arch '%s'\n", arch.c_str()), 2;
    auto built = cache.prewarm_merge_sort(spec, *cc);
    if (!built) return std::fprintf(stderr, "demo: %s\n", built.error().describe().c_str()), 1;
    std::printf("no GPU here: %s for sm_%u in %.1f ms (a GPU run would load it from the store)\n",
                *built ? "built and stored" : "already cached", *cc, ms_since(t0));
    return 0;
  }
  auto exe = cache.merge_sort(spec, 0);
  if (!exe) return std::fprintf(stderr, "demo: %s\n", exe.error().describe().c_str()), 1;
  auto s = cache.stats();
  std::printf("acquired for device 0 (sm_%u) in %.1f ms: %s\n", (*exe)->cc(), ms_since(t0),
              s.builds ? "built with NVRTC and stored" : "loaded from the store and bound");
  t0 = Clock::now();
  auto again = cache.merge_sort(spec, 0);
  std::printf("in-process repeat: %.3f us (same executable: %s)\n", ms_since(t0) * 1000.0,
              again && again->get() == exe->get() ? "yes" : "no");
  return sort_on_gpu(**exe, n);
}
