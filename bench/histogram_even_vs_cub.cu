// histogram_even time of our bound executable against CUB's cub::DeviceHistogram::
// HistogramEven compiled here by nvcc (sm_90) against the same pinned CCCL, both with an
// int sample count: uint8 samples (int levels) into 256 bins over [0, 256) (CUB's byte
// path), int32 samples into 256 bins (shared-memory bins), float32 samples into 2048
// bins (global-memory bins); 2^min..2^max samples (default 10..28), a tenth of them
// outside the bounds. CUB's HistogramEven builds its bin operators on the host; ours are
// CUB's device-side ones (one build for every bin count): the same bins, a different
// sweep kernel instance.
// Method: inputs stay in place, histograms apart per contender; CUDA events recorded
// before and after each call time it (GPU time, launch gaps included); the host time of
// issuing the call is taken too. Ours and CUB alternate within every repetition; medians
// after two warm-up reps. Check: our histogram is bitwise equal to CUB's, and our
// temp-storage size equals CUB's.
// Usage: bench_histogram_even_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <cub/device/device_histogram.cuh>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "vs_cub.hpp"

namespace he = cccl_cache::algos::histogram_even;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;
using bench::device_copy;

// n samples uniform over [lower - span/18, upper + span/18) (a tenth outside), clamped to T.
template <class T, class L>
std::vector<T> make_samples(std::uint64_t n, L lower, L upper, std::uint64_t& seed) {
  std::vector<T> out(n);
  const double lo = static_cast<double>(lower), span = static_cast<double>(upper) - lo;
  for (std::uint64_t i = 0; i < n; ++i) {
    const double u = static_cast<double>(bench::splitmix(seed) >> 11) / 9007199254740992.0;
    double v = lo - span / 18 + u * span * 20 / 18;
    if constexpr (std::is_integral_v<T>)
      v = std::clamp(v, static_cast<double>(std::numeric_limits<T>::lowest()),
                     static_cast<double>(std::numeric_limits<T>::max()));
    out[i] = static_cast<T>(v);
  }
  return out;
}

template <class T, class L>
void run_case(const char* label, const he::Executable& exe, int levels, L lower, L upper,
              const bench::VsCub& run) {
  const int min_log = run.min_log, max_log = run.max_log;
  cudaStream_t stream = run.stream;
  const int bins = levels - 1;
  std::printf("%s: n, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 23;
  int* hist = nullptr;  // ours [0, bins), CUB's [bins, 2 bins)
  check_rt(cudaMalloc(&hist, 2 * bins * sizeof(int)), "malloc");
  for (int lg = min_log; lg <= max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    const int n32 = static_cast<int>(n);
    T* in = device_copy(make_samples<T>(n, lower, upper, seed));
    std::size_t ours_temp = exe.temp_storage_bytes(n, levels), cub_temp = 0;
    check_rt(cub::DeviceHistogram::HistogramEven(nullptr, cub_temp, in, hist + bins, levels, lower, upper, n32,
                                                 stream),
             "cub query");
    void* temp = nullptr;
    check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
    const int reps = bench::VsCub::reps(n);
    const auto times = bench::rotating_times(2, reps, stream, [&](int who) {
      std::size_t bytes = who == 0 ? ours_temp : cub_temp;
      if (who == 0)
        bench::check_cu(exe(temp, bytes, in, hist, levels, &lower, &upper, n, stream), "ours");
      else
        check_rt(cub::DeviceHistogram::HistogramEven(temp, bytes, in, hist + bins, levels, lower, upper, n32,
                                                     stream),
                 "cub");
    });
    std::vector<int> got(2 * bins);
    check_rt(cudaMemcpy(got.data(), hist, got.size() * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
    const bool same = std::memcmp(got.data(), got.data() + bins, bins * sizeof(int)) == 0;
    const double o = times.gpu_ms[0], c = times.gpu_ms[1];
    std::printf("RESULT %s n=%llu bins=%d ours_ms=%.5f cub_ms=%.5f ratio=%.4f ours_host_us=%.2f "
                "cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                label, (unsigned long long)n, bins, o, c, o / c, times.host_us[0], times.host_us[1],
                same ? 1 : 0, ours_temp == cub_temp ? 1 : 0, reps);
    std::fflush(stdout);
    cudaFree(temp);
    cudaFree(in);
  }
  cudaFree(hist);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "histogram_even");
  run.print_method("samples", "ours and CUB DeviceHistogram::HistogramEven", "alternate",
                   "int num_samples, int32 counters");
  const auto exe = [&run](ScalarType t, ScalarType level) -> const he::Executable& {
    he::Spec spec;
    spec.type = t;
    spec.level_type = level;
    return run.acquire(spec);
  };
  run_case<std::uint8_t, int>("uint8_256bins", exe(ScalarType::uint8, ScalarType::int32), 257, 0, 256, run);
  run_case<std::int32_t, int>("int32_256bins", exe(ScalarType::int32, ScalarType::none), 257, 0, 1024, run);
  run_case<float, float>("float32_2048bins", exe(ScalarType::float32, ScalarType::none), 2049, 0.0f, 1.0f, run);
  return 0;
}
