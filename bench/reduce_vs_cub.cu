// Reduce time of our bound reduce against CUB's cub::DeviceReduce::Reduce and, for
// plus, cub::DeviceReduce::Sum, compiled here by nvcc (sm_90) against the same pinned
// CCCL: float32, float64, int64 and float16 sums and a float32 maximum, 2^min..2^max
// items (default 10..28). CUB is called with a uint64_t count, so it reduces with
// unsigned long long offsets (choose_offset_t), as our default spec does.
// Method: the input stays in place; CUDA events recorded before and after each call
// time it (GPU time, launch gaps included); the host time of issuing the call is
// taken too. Ours, CUB Reduce and CUB Sum rotate within every repetition; medians
// after two warm-up reps. Check: our result is bitwise equal to CUB's (both with
// init 0, so Sum's too) and our temp-storage size equals CUB's.
// Usage: bench_reduce_vs_cub [max_log [min_log]]
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "bench_util.hpp"
#include "vs_cub.hpp"

namespace rd = cccl_cache::algos::reduce;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;

template <class T>
T random_value(std::uint64_t r) {
  const double u = bench::unit_double(r);  // [0, 1)
  if constexpr (std::is_same_v<T, __half>) return __double2half(u * 2 - 1);
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(u * 2e3 - 1e3);
  else return static_cast<T>(static_cast<std::int64_t>(r % 2000001) - 1000000);
}

// CUB's calls for one (type, operator): Reduce, and Sum where the operator is plus.
template <class T, class Op>
cudaError_t cub_reduce(void* temp, std::size_t& bytes, const T* in, T* out, std::uint64_t n,
                       cudaStream_t stream) {
  return cub::DeviceReduce::Reduce(temp, bytes, in, out, n, Op{}, T{}, stream);
}
template <class T>
cudaError_t cub_sum(void* temp, std::size_t& bytes, const T* in, T* out, std::uint64_t n,
                    cudaStream_t stream) {
  return cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream);
}

template <class T, class Op>
void run_case(const char* label, const rd::Executable& exe, bool with_sum, const bench::VsCub& run) {
  const int min_log = run.min_log, max_log = run.max_log;
  cudaStream_t stream = run.stream;
  std::printf("%s: n, ours / CUB Reduce / CUB Sum: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 7;
  const std::uint64_t max_n = 1ull << max_log;
  std::vector<T> host(max_n);
  for (auto& v : host) v = random_value<T>(bench::splitmix(seed));
  T* in = nullptr;
  check_rt(cudaMalloc(&in, max_n * sizeof(T)), "malloc");
  check_rt(cudaMemcpy(in, host.data(), max_n * sizeof(T), cudaMemcpyHostToDevice), "copy");
  const int contenders = with_sum ? 3 : 2;  // 0 ours, 1 CUB Reduce, 2 CUB Sum
  T* outs = nullptr;
  check_rt(cudaMalloc(&outs, contenders * sizeof(T)), "malloc");
  const T zero{};
  for (int lg = min_log; lg <= max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    std::size_t ours_temp = exe.temp_storage_bytes(n), cub_temp = 0, sum_temp = 0;
    check_rt(cub_reduce<T, Op>(nullptr, cub_temp, in, outs, n, stream), "cub query");
    if (with_sum) check_rt(cub_sum<T>(nullptr, sum_temp, in, outs, n, stream), "cub query");
    void* temp = nullptr;
    check_rt(cudaMalloc(&temp, std::max({ours_temp, cub_temp, sum_temp})), "malloc");
    const int reps = bench::VsCub::reps(n);
    const auto times = bench::rotating_times(contenders, reps, stream, [&](int who) {
      T* out = outs + who;
      if (who == 0) {
        std::size_t bytes = ours_temp;
        bench::check_cu(exe(temp, bytes, in, out, n, &zero, stream), "ours");
      } else {
        std::size_t bytes = who == 1 ? cub_temp : sum_temp;
        check_rt(who == 1 ? cub_reduce<T, Op>(temp, bytes, in, out, n, stream)
                          : cub_sum<T>(temp, bytes, in, out, n, stream),
                 "cub");
      }
    });
    T got[3];
    check_rt(cudaMemcpy(got, outs, contenders * sizeof(T), cudaMemcpyDeviceToHost), "d2h");
    bool same = std::memcmp(&got[0], &got[1], sizeof(T)) == 0;
    if (with_sum) same = same && std::memcmp(&got[0], &got[2], sizeof(T)) == 0;
    const double o = times.gpu_ms[0], c = times.gpu_ms[1];
    std::printf("RESULT %s n=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f", label,
                (unsigned long long)n, o, c, o / c);
    if (with_sum) {
      const double s = times.gpu_ms[2];
      std::printf(" cub_sum_ms=%.5f sum_ratio=%.4f", s, o / s);
    }
    std::printf(" ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                times.host_us[0], times.host_us[1], same ? 1 : 0,
                ours_temp == cub_temp ? 1 : 0, reps);
    std::fflush(stdout);
    cudaFree(temp);
  }
  cudaFree(in);
  cudaFree(outs);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "reduce");
  run.print_method("input", "ours, CUB Reduce and CUB Sum", "rotate", "uint64 counts and offsets");
  const auto exe = [&run](ScalarType t, OpKind op) -> const rd::Executable& {
    return run.acquire(rd::Spec{t, Operator::of(op), ScalarType::uint64});
  };
  using Plus = ::cuda::std::plus<>;
  run_case<float, Plus>("float32_plus", exe(ScalarType::float32, OpKind::plus), true, run);
  run_case<double, Plus>("float64_plus", exe(ScalarType::float64, OpKind::plus), true, run);
  run_case<std::int64_t, Plus>("int64_plus", exe(ScalarType::int64, OpKind::plus), true, run);
  run_case<__half, Plus>("float16_plus", exe(ScalarType::float16, OpKind::plus), true, run);
  run_case<float, ::cuda::maximum<>>("float32_maximum", exe(ScalarType::float32, OpKind::maximum),
                                     false, run);
  return 0;
}
