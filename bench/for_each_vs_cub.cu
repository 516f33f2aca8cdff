// for_each call time of our bound executable against cub::DeviceFor::ForEachN compiled here
// by nvcc (sm_90) with the same pinned CCCL, 2^10 .. 2^max items (default 28):
//   1. in place over a float32 array, x = x * 0.5 + 1 (a reference to each item);
//   2. in place over an int64 array, x = x ^ (x >> 7);
//   3. a stateful scatter over a counting iterator, out[i] = 3i + 1 through a device
//      pointer in the operator's state (CUB: a functor holding the pointer).
// Method: each timed sample is `calls` back-to-back calls between two CUDA events (host
// dispatch included), per-call time = elapsed / calls; ours and CUB alternate within every
// repetition; median over repetitions. Check: at every size one call of each from the same
// input leaves bitwise equal items.
// Usage: bench_for_each_vs_cub [max_log2 (10..30, default 28)]
#include <cuda.h>
#include <cuda_runtime.h>

#include <cub/device/device_for.cuh>
#include <cuda/iterator>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/for_each/build_result.hpp"
#include "cccl_cache/algos/for_each/executable.hpp"

namespace fe = cccl_cache::algos::for_each;
using cccl_cache::algos::Iterator;
using cccl_cache::algos::IteratorValue;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check;
using bench::die;

fe::Executable make(const fe::Spec& spec, std::uint32_t cc) {
  auto built = fe::build(spec, cc);
  if (!built) die(fe::summary(spec) + ": " + built.error().describe());
  auto exe = fe::bind(*built, 0);
  if (!exe) die(fe::summary(spec) + ": " + exe.error().describe());
  return std::move(*exe);
}

struct Halve {
  __device__ void operator()(float& x) const { x = x * 0.5f + 1.0f; }
};
struct Mix {
  __device__ void operator()(long long& x) const { x = x ^ (x >> 7); }
};
struct Scatter {
  long long* out;
  __device__ void operator()(long long i) const { out[i] = 3 * i + 1; }
};

// One case: `ours(buffer, n)` / `cub(buffer, n)` each act on its own buffer of T, both filled
// from the same host items; checked equal after one call of each, then timed.
template <class T, class Ours, class Cub>
void bench_case(const char* label, int max_log2, double bytes_per_item, cudaStream_t s, Ours ours, Cub cub) {
  const std::uint64_t max_n = std::uint64_t{1} << max_log2;
  T *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, max_n * sizeof(T)), "cudaMalloc");
  check(cudaMalloc(&b, max_n * sizeof(T)), "cudaMalloc");
  std::vector<T> h(max_n);
  for (std::uint64_t i = 0; i < max_n; ++i) h[i] = static_cast<T>(static_cast<long long>((i * 2654435761u) % 1000003) - 500000);
  std::printf("\n%s\n%12s %12s %12s %8s %10s\n", label, "items", "ours_us", "cub_us", "ratio", "ours_GB/s");
  for (int lg = 10; lg <= max_log2; ++lg) {
    const std::uint64_t n = std::uint64_t{1} << lg;
    check(cudaMemcpy(a, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(b, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), "upload");
    ours(a, n);
    cub(b, n);
    check(cudaStreamSynchronize(s), "sync");
    std::vector<T> x(n), y(n);
    check(cudaMemcpy(x.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
    check(cudaMemcpy(y.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
    if (std::memcmp(x.data(), y.data(), n * sizeof(T)) != 0) die(std::string(label) + ": items differ");
    auto [o, c] = bench::alternating_medians([&] { ours(a, n); }, [&] { cub(b, n); }, n, s);
    check(cudaStreamSynchronize(s), "sync");
    std::printf("%12llu %12.2f %12.2f %8.3f %10.1f\n", static_cast<unsigned long long>(n), o, c, o / c,
                double(n) * bytes_per_item / (o * 1e3));
  }
  cudaFree(a);
  cudaFree(b);
}

}  // namespace

int main(int argc, char** argv) {
  const int max_log2 = argc > 1 ? std::atoi(argv[1]) : 28;
  if (max_log2 < 10 || max_log2 > 30) die("max_log2 must be within 10..30");
  const std::uint32_t cc = bench::runtime_gpu();
  if (cc != 90) std::printf("note: CUB here is compiled for sm_90 only; this device is sm_%u\n", cc);
  cudaStream_t s;
  check(cudaStreamCreate(&s), "stream");
  const CUstream cs = reinterpret_cast<CUstream>(s);

  const fe::Executable halve = make(
      {ScalarType::float32, Operator::custom("halve1", "__device__ void halve1(float& x) { x = x * 0.5f + 1.0f; }")},
      cc);
  bench_case<float>("in place float32: x = x * 0.5 + 1", max_log2, 8, s,
                    [&](float* d, std::uint64_t n) { check(halve(d, n, cs), "ours"); },
                    [&](float* d, std::uint64_t n) {
                      check(cub::DeviceFor::ForEachN(d, static_cast<std::int64_t>(n), Halve{}, s), "cub");
                    });

  const fe::Executable mix = make(
      {ScalarType::int64, Operator::custom("mix7", "__device__ void mix7(long long& x) { x = x ^ (x >> 7); }")}, cc);
  bench_case<long long>("in place int64: x = x ^ (x >> 7)", max_log2, 16, s,
                        [&](long long* d, std::uint64_t n) { check(mix(d, n, cs), "ours"); },
                        [&](long long* d, std::uint64_t n) {
                          check(cub::DeviceFor::ForEachN(d, static_cast<std::int64_t>(n), Mix{}, s), "cub");
                        });

  const fe::Executable scatter = make(
      {ScalarType::int64,
       Operator::custom("scatter3", "__device__ void scatter3(void* s, long long i) { (*(long long**)s)[i] = 3 * i + 1; }",
                        8, 8),
       ScalarType::int64, Iterator::counting(ScalarType::int64)},
      cc);
  bench_case<long long>("stateful scatter over counting(int64): out[i] = 3i + 1", max_log2, 8, s,
                        [&](long long* d, std::uint64_t n) {
                          check(scatter(IteratorValue::counting(std::int64_t{0}), n, cs, {&d, sizeof d}), "ours");
                        },
                        [&](long long* d, std::uint64_t n) {
                          check(cub::DeviceFor::ForEachN(::cuda::counting_iterator<long long>{0},
                                                         static_cast<std::int64_t>(n), Scatter{d}, s),
                                "cub");
                        });
  cudaStreamDestroy(s);
  return 0;
}
