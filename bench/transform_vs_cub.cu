// Transform time of our bound unary/binary transform against CUB's
// cub::DeviceTransform::Transform compiled here by nvcc (sm_90) with the same pinned
// CCCL: binary plus over float32 and over int64, unary negate over float32, 2^10 .. 2^max
// items (default 28). Method: each timed sample is `calls` back-to-back calls between
// two CUDA events (host dispatch included: what a caller pays), per-call time = elapsed /
// calls; ours and CUB alternate within every repetition; median over repetitions.
// Check: at every size our output is bitwise equal to CUB's.
// Usage: bench_transform_vs_cub [max_log2 (10..30, default 28)]
#include <cuda.h>
#include <cuda_runtime.h>

#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/algos/transform/executable.hpp"
#include "bench_util.hpp"

namespace tr = cccl_cache::algos::transform;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check;
using bench::die;

template <class Exe>
Exe make(const auto& spec, std::uint32_t cc) {
  auto built = tr::build(spec, cc);
  if (!built) die(tr::summary(spec) + ": " + built.error().describe());
  auto exe = tr::bind(*built, 0);
  if (!exe) die(tr::summary(spec) + ": " + exe.error().describe());
  return std::move(*exe);
}

template <class T>
void fill(T* d, std::uint64_t n, std::uint64_t seed) {
  std::vector<T> h(n);
  for (std::uint64_t i = 0; i < n; ++i) h[i] = static_cast<T>((i * 2654435761u + seed) % 1000003) - T(500000);
  check(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), "upload");
}

template <class T>
void bench_case(const char* label, int arity, int max_log2, std::uint32_t cc, cudaStream_t s) {
  const std::uint64_t max_n = std::uint64_t{1} << max_log2;
  T *x = nullptr, *y = nullptr, *ours_out = nullptr, *cub_out = nullptr;
  for (T** p : {&x, &y, &ours_out, &cub_out}) check(cudaMalloc(p, max_n * sizeof(T)), "cudaMalloc");
  fill(x, max_n, 1);
  fill(y, max_n, 2);
  const ScalarType t = sizeof(T) == 4 ? ScalarType::float32 : ScalarType::int64;
  std::printf("\n%s\n%12s %12s %12s %8s %10s\n", label, "items", "ours_us", "cub_us", "ratio", "ours_GB/s");
  auto run = [&](auto& exe, auto cub_call) {
    for (int lg = 10; lg <= max_log2; ++lg) {
      const std::uint64_t n = std::uint64_t{1} << lg;
      auto [o, c] = bench::alternating_medians([&] { exe.call(n); }, [&] { cub_call(n); }, n, s);
      check(cudaStreamSynchronize(s), "sync");
      std::vector<T> a(n), b(n);
      check(cudaMemcpy(a.data(), ours_out, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
      check(cudaMemcpy(b.data(), cub_out, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
      if (std::memcmp(a.data(), b.data(), n * sizeof(T)) != 0) die(std::string(label) + ": outputs differ");
      const double bytes = double(n) * sizeof(T) * (arity + 1);
      std::printf("%12llu %12.2f %12.2f %8.3f %10.1f\n", static_cast<unsigned long long>(n), o, c, o / c,
                  bytes / (o * 1e3));
    }
  };
  if (arity == 2) {
    struct {
      tr::Executable<2> e;
      T *x, *y, *out;
      cudaStream_t s;
      void call(std::uint64_t n) { check(e(x, y, out, n, reinterpret_cast<CUstream>(s)), "ours"); }
    } ours{make<tr::Executable<2>>(tr::BinarySpec{{t, t}, t, Operator::plus()}, cc), x, y, ours_out, s};
    run(ours, [&](std::uint64_t n) {
      check(cub::DeviceTransform::Transform(::cuda::std::make_tuple(static_cast<const T*>(x),
                                                                     static_cast<const T*>(y)),
                                            cub_out, static_cast<std::int64_t>(n), ::cuda::std::plus<>{},
                                            ::cuda::stream_ref{s}),
            "cub");
    });
  } else {
    struct {
      tr::Executable<1> e;
      T *x, *out;
      cudaStream_t s;
      void call(std::uint64_t n) { check(e(x, out, n, reinterpret_cast<CUstream>(s)), "ours"); }
    } ours{make<tr::Executable<1>>(tr::UnarySpec{{t}, t, Operator::of(OpKind::negate)}, cc), x, ours_out, s};
    run(ours, [&](std::uint64_t n) {
      check(cub::DeviceTransform::Transform(static_cast<const T*>(x), cub_out, static_cast<std::int64_t>(n),
                                            ::cuda::std::negate<>{}, ::cuda::stream_ref{s}),
            "cub");
    });
  }
  for (T* p : {x, y, ours_out, cub_out}) cudaFree(p);
}

}  // namespace

int main(int argc, char** argv) {
  const int max_log2 = argc > 1 ? std::atoi(argv[1]) : 28;
  if (max_log2 < 10 || max_log2 > 30) die("max_log2 must be within 10..30");
  const std::uint32_t cc = bench::runtime_gpu();  // the primary context, current: what bind uses
  if (cc != 90) std::printf("note: CUB here is compiled for sm_90 only; this device is sm_%u\n", cc);
  cudaStream_t s;
  check(cudaStreamCreate(&s), "stream");
  bench_case<float>("binary plus float32", 2, max_log2, cc, s);
  bench_case<std::int64_t>("binary plus int64", 2, max_log2, cc, s);
  bench_case<float>("unary negate float32", 1, max_log2, cc, s);
  cudaStreamDestroy(s);
  return 0;
}
