// Segmented reduce time of our bound executable against CUB's
// cub::DeviceSegmentedReduce::Reduce compiled here by nvcc (sm_90) against the same
// pinned CCCL: float32 and int64 sums, a float32 maximum and an argmax of 8-byte
// {float value; int index} structs (a user's struct and operator) over int64 begin/end
// offsets, 2^min..2^max items (default 10..28) in two layouts: segments of 1,024 items
// ("seg1024"), and segments of random length in [0, 256] ("rand256", empty ones included).
// Method: input and offsets stay in place; CUDA events recorded before and after each
// call time it (GPU time, launch gaps included); the host time of issuing the call is
// taken too. Ours and CUB alternate within every repetition; medians after two warm-up
// reps. Check: our outputs are bitwise equal to CUB's (init 0) and our temp-storage
// size equals CUB's.
// Usage: bench_segmented_reduce_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/functional>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "bench_util.hpp"
#include "struct_argmax.hpp"
#include "vs_cub.hpp"

namespace sr = cccl_cache::algos::segmented_reduce;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;

template <class T>
T random_value(std::uint64_t r) {
  if constexpr (std::is_same_v<T, bench::vi>)
    return bench::random_argmax_item<T>(r);
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(bench::unit_double(r) * 2e3 - 1e3);
  else
    return static_cast<T>(static_cast<std::int64_t>(r % 2000001) - 1000000);
}

// Offsets of the layout for n items: begin[i] = end[i-1], the last segment ending at n.
std::vector<std::int64_t> boundaries(bool random, std::uint64_t n, std::uint64_t& seed) {
  std::vector<std::int64_t> b{0};
  while (static_cast<std::uint64_t>(b.back()) < n) {
    const std::uint64_t len = random ? bench::splitmix(seed) % 257 : 1024;
    b.push_back(static_cast<std::int64_t>(std::min<std::uint64_t>(n, b.back() + len)));
  }
  return b;
}

template <class T, class Op>
void run_case(const char* label, const sr::Executable& exe, const bench::VsCub& run) {
  const int min_log = run.min_log, max_log = run.max_log;
  cudaStream_t stream = run.stream;
  std::printf("%s: layout n segments, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 7;
  const std::uint64_t max_n = 1ull << max_log;
  std::vector<T> host(max_n);
  for (auto& v : host) v = random_value<T>(bench::splitmix(seed));
  T* in = nullptr;
  check_rt(cudaMalloc(&in, max_n * sizeof(T)), "malloc");
  check_rt(cudaMemcpy(in, host.data(), max_n * sizeof(T), cudaMemcpyHostToDevice), "copy");
  const T zero{};
  for (bool random : {false, true}) {
    for (int lg = min_log; lg <= max_log; ++lg) {
      const std::uint64_t n = 1ull << lg;
      const std::vector<std::int64_t> b = boundaries(random, n, seed);
      const std::uint64_t m = b.size() - 1;
      std::int64_t* offsets = nullptr;
      T* outs = nullptr;  // ours at [0, m), CUB's at [m, 2m)
      check_rt(cudaMalloc(&offsets, b.size() * sizeof(std::int64_t)), "malloc");
      check_rt(cudaMemcpy(offsets, b.data(), b.size() * sizeof(std::int64_t), cudaMemcpyHostToDevice), "copy");
      check_rt(cudaMalloc(&outs, 2 * m * sizeof(T)), "malloc");
      std::size_t ours_temp = exe.temp_storage_bytes(m), cub_temp = 0;
      check_rt(cub::DeviceSegmentedReduce::Reduce(nullptr, cub_temp, in, outs, m, offsets, offsets + 1,
                                                  Op{}, zero, stream),
               "cub query");
      void* temp = nullptr;
      check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
      const auto times = bench::rotating_times(2, bench::VsCub::reps(n), stream, [&](int who) {
        std::size_t bytes = who == 0 ? ours_temp : cub_temp;
        if (who == 0)
          bench::check_cu(exe(temp, bytes, in, outs, m, offsets, offsets + 1, &zero, stream), "ours");
        else
          check_rt(cub::DeviceSegmentedReduce::Reduce(temp, bytes, in, outs + m, m, offsets, offsets + 1,
                                                      Op{}, zero, stream),
                   "cub");
      });
      std::vector<T> got(2 * m);
      check_rt(cudaMemcpy(got.data(), outs, 2 * m * sizeof(T), cudaMemcpyDeviceToHost), "d2h");
      const bool same = std::memcmp(got.data(), got.data() + m, m * sizeof(T)) == 0;
      const double o = times.gpu_ms[0], c = times.gpu_ms[1];
      std::printf("RESULT %s layout=%s n=%llu segments=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f "
                  "ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                  label, random ? "rand256" : "seg1024", (unsigned long long)n,
                  (unsigned long long)m, o, c, o / c, times.host_us[0], times.host_us[1],
                  same ? 1 : 0, ours_temp == cub_temp ? 1 : 0, bench::VsCub::reps(n));
      std::fflush(stdout);
      cudaFree(temp);
      cudaFree(outs);
      cudaFree(offsets);
    }
  }
  cudaFree(in);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "segmented_reduce");
  run.print_method("input and offsets", "ours and CUB DeviceSegmentedReduce::Reduce", "alternate",
                   "int64 offsets");
  const auto exe = [&run](ScalarType t, OpKind op) -> const sr::Executable& {
    return run.acquire(sr::Spec{t, Operator::of(op), ScalarType::int64});
  };
  using Plus = ::cuda::std::plus<>;
  run_case<float, Plus>("float32_plus", exe(ScalarType::float32, OpKind::plus), run);
  run_case<std::int64_t, Plus>("int64_plus", exe(ScalarType::int64, OpKind::plus), run);
  run_case<float, ::cuda::maximum<>>("float32_maximum", exe(ScalarType::float32, OpKind::maximum), run);
  const sr::Spec argmax{cccl_cache::algos::ElementType::structure("vi", bench::kViDef, sizeof(bench::vi),
                                                                  alignof(bench::vi)),
                        Operator::custom("argmax", bench::kArgMaxSrc), ScalarType::int64};
  run_case<bench::vi, bench::ArgMax>("vi_argmax", run.acquire(argmax), run);
  return 0;
}
