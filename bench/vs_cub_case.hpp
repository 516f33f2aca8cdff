// A side-by-side case of the vs-CUB benchmarks over iterators: ours and CUB's calls for n
// items, timed in one run (bench::rotating_times) and their outputs compared bytewise.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#include "bench_util.hpp"
#include "vs_cub.hpp"

namespace bench {

// One case: for n items, ours and CUB's calls (who 0 and 1) on (temp, bytes, stream),
// their temp-storage sizes, and each one's output bytes to compare.
struct Case {
  std::function<void(int who, void* temp, std::size_t& bytes, cudaStream_t s)> call;
  std::size_t out_bytes = 0;
  void* out[2] = {};
};

template <class Setup>
void run_case(const char* label, const bench::VsCub& vs, Setup setup) {
  std::printf("%s: n, ours / CUB GPU ms (median)\n", label);
  for (int lg = vs.min_log; lg <= vs.max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    std::vector<void*> owned;
    Case c = setup(n, owned);
    std::size_t temp_bytes[2] = {0, 0};
    for (int who = 0; who < 2; ++who) c.call(who, nullptr, temp_bytes[who], vs.stream);
    void* temp = nullptr;
    check_rt(cudaMalloc(&temp, std::max<std::size_t>({temp_bytes[0], temp_bytes[1], 1})), "malloc");
    const auto times = bench::rotating_times(2, bench::VsCub::reps(n), vs.stream, [&](int who) {
      std::size_t bytes = temp_bytes[who];
      c.call(who, temp, bytes, vs.stream);
    });
    check_rt(cudaStreamSynchronize(vs.stream), "sync");
    std::vector<unsigned char> a(c.out_bytes), b(c.out_bytes);
    check_rt(cudaMemcpy(a.data(), c.out[0], c.out_bytes, cudaMemcpyDeviceToHost), "d2h");
    check_rt(cudaMemcpy(b.data(), c.out[1], c.out_bytes, cudaMemcpyDeviceToHost), "d2h");
    std::printf(
        "RESULT %s n=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f check=%d temp_equal=%d reps=%d\n",
        label, static_cast<unsigned long long>(n), times.gpu_ms[0], times.gpu_ms[1],
        times.gpu_ms[0] / times.gpu_ms[1], a == b ? 1 : 0, temp_bytes[0] == temp_bytes[1] ? 1 : 0,
        bench::VsCub::reps(n));
    std::fflush(stdout);
    cudaFree(temp);
    for (void* p : owned) cudaFree(p);
  }
}

template <class T>
T* device_alloc(std::uint64_t n, std::vector<void*>& owned) {
  T* p = nullptr;
  check_rt(cudaMalloc(&p, std::max<std::uint64_t>(n, 1) * sizeof(T)), "malloc");
  check_rt(cudaMemset(p, 0, std::max<std::uint64_t>(n, 1) * sizeof(T)), "memset");
  owned.push_back(p);
  return p;
}

// A case whose two outputs (ours, CUB's) are n zeroed T each, compared whole.
template <class T>
Case with_outputs(std::uint64_t n, std::vector<void*>& owned) {
  Case c;
  c.out[0] = device_alloc<T>(n, owned);
  c.out[1] = device_alloc<T>(n, owned);
  c.out_bytes = n * sizeof(T);
  return c;
}

}  // namespace bench
