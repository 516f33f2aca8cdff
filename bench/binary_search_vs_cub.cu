// Binary search time of our bound executable against CUB's cub::DeviceFind::LowerBound /
// UpperBound compiled here by nvcc (sm_90) against the same pinned CCCL: int32 lower and
// upper bounds with less over ascending data, float32 lower bounds with greater over
// descending data, int64 indices; a sorted range of n items with duplicates (about n/4
// distinct values) and n values (below, between, equal to and above the range's), for
// n = 2^min..2^max (default 10..28); uint64 counts, as ours takes.
// Method: inputs stay in place, outputs apart per contender; CUDA events recorded before
// and after each call time it (GPU time, launch gaps included); the host time of issuing
// the call is taken too. Ours and CUB alternate within every repetition; medians after
// two warm-up reps. Check: our indices are bitwise equal to CUB's, and our temp-storage
// size equals CUB's.
// Usage: bench_binary_search_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cub/device/device_find.cuh>
#include <cuda/std/functional>
#include <functional>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "vs_cub.hpp"

namespace bs = cccl_cache::algos::binary_search;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;
using bench::device_copy;

// n items of about n/4 distinct even values sorted by `comp`, and n values around them.
template <class T, class HostComp>
void make_data(std::uint64_t n, std::uint64_t& seed, HostComp comp, std::vector<T>& data,
               std::vector<T>& values) {
  const std::uint64_t distinct = std::max<std::uint64_t>(n / 4, 1);
  data.resize(n);
  for (auto& x : data) x = static_cast<T>(2 * (bench::splitmix(seed) % distinct) + 2);
  std::sort(data.begin(), data.end(), comp);
  values.resize(n);
  for (auto& v : values) v = static_cast<T>(bench::splitmix(seed) % (2 * distinct + 4));
}

template <class T, class CubComp, class HostComp>
void run_case(const char* label, const bs::Executable& exe, bool upper, CubComp cub_comp,
              HostComp host_comp, const bench::VsCub& run) {
  cudaStream_t stream = run.stream;
  std::printf("%s: n, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 29;
  const std::uint64_t max_n = 1ull << run.max_log;
  std::int64_t* out = nullptr;  // ours [0, max_n), CUB's [max_n, 2 max_n)
  check_rt(cudaMalloc(&out, 2 * max_n * sizeof(std::int64_t)), "malloc");
  for (int lg = run.min_log; lg <= run.max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    std::vector<T> h_data, h_values;
    make_data<T>(n, seed, host_comp, h_data, h_values);
    const T* data = device_copy(h_data);
    const T* values = device_copy(h_values);
    std::int64_t* ours = out;
    std::int64_t* cubs = out + n;
    auto cub_call = [&](void* temp, std::size_t& bytes) {
      return upper ? cub::DeviceFind::UpperBound(temp, bytes, data, n, values, n, cubs, cub_comp,
                                                 cuda::stream_ref{stream})
                   : cub::DeviceFind::LowerBound(temp, bytes, data, n, values, n, cubs, cub_comp,
                                                 cuda::stream_ref{stream});
    };
    const std::size_t ours_temp = exe.temp_storage_bytes();
    std::size_t cub_temp = 0;
    check_rt(cub_call(nullptr, cub_temp), "cub query");
    void* temp = nullptr;
    check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
    const int reps = bench::VsCub::reps(n);
    const auto times = bench::rotating_times(2, reps, stream, [&](int who) {
      std::size_t bytes = who == 0 ? ours_temp : cub_temp;
      if (who == 0)
        bench::check_cu(exe(temp, bytes, data, n, values, n, ours, stream), "ours");
      else
        check_rt(cub_call(temp, bytes), "cub");
    });
    std::vector<std::int64_t> got(2 * n);
    check_rt(cudaMemcpy(got.data(), out, 2 * n * sizeof(std::int64_t), cudaMemcpyDeviceToHost),
             "d2h");
    const bool same = std::memcmp(got.data(), got.data() + n, n * sizeof(std::int64_t)) == 0;
    const double o = times.gpu_ms[0], c = times.gpu_ms[1];
    std::printf(
        "RESULT %s n=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f ours_host_us=%.2f cub_host_us=%.2f "
        "check=%d temp_equal=%d reps=%d\n",
        label, (unsigned long long)n, o, c, o / c, times.host_us[0], times.host_us[1], same ? 1 : 0,
        ours_temp == cub_temp ? 1 : 0, reps);
    std::fflush(stdout);
    cudaFree(temp);
    cudaFree(const_cast<T*>(data));
    cudaFree(const_cast<T*>(values));
  }
  cudaFree(out);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "binary_search");
  run.print_method("inputs", "ours and CUB DeviceFind::LowerBound / UpperBound", "alternate",
                   "uint64 counts, int64 indices");
  const auto exe = [&run](ScalarType t, Operator comp, bool upper) -> const bs::Executable& {
    bs::Spec spec;
    spec.type = t;
    spec.comparator = std::move(comp);
    spec.upper = upper;
    return run.acquire(spec);
  };
  run_case<std::int32_t>("int32_lower_less", exe(ScalarType::int32, Operator::less(), false), false,
                         cuda::std::less<>{}, std::less<>{}, run);
  run_case<std::int32_t>("int32_upper_less", exe(ScalarType::int32, Operator::less(), true), true,
                         cuda::std::less<>{}, std::less<>{}, run);
  run_case<float>("float32_lower_greater", exe(ScalarType::float32, Operator::greater(), false),
                  false, cuda::std::greater<>{}, std::greater<>{}, run);
  return 0;
}
