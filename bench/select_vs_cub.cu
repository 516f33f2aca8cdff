// select time of our bound executable against CUB's cub::DeviceSelect::If compiled here
// by nvcc (sm_90) against the same pinned CCCL: int32 and int64 items with the identity
// predicate (nonzero items) and float32 items with a custom predicate (x > 0, our
// CUDA C++ source against the same functor compiled by nvcc), an int64 count,
// 2^min..2^max items (default 10..28) in two layouts: half the items selected at random
// ("keep50") and one in sixteen ("keep6").
// Method: inputs stay in place, outputs apart per contender; CUDA events recorded before
// and after each call time it (GPU time, launch gaps included); the host time of issuing
// the call is taken too. Ours and CUB alternate within every repetition; medians after
// two warm-up reps. Check: our items and number selected are bitwise equal to CUB's, and
// our temp-storage size equals CUB's.
// Usage: bench_select_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "bench_util.hpp"
#include "vs_cub.hpp"

namespace sel = cccl_cache::algos::select;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;
using bench::device_copy;

// What our custom predicate's source says, as nvcc compiles it for CUB.
struct Positive {
  __device__ bool operator()(float x) const { return x > 0.0f; }
};

// n items of which about one in `keep_one_in` is kept by both predicates (nonzero and
// positive); the others are 0 or negative.
template <class T>
std::vector<T> make_items(std::uint64_t n, std::uint64_t keep_one_in, std::uint64_t& seed) {
  std::vector<T> items(n);
  for (auto& x : items) {
    const std::uint64_t r = bench::splitmix(seed);
    const bool keep = r % keep_one_in == 0;
    const auto v = static_cast<T>(1 + (r >> 16) % 1000);
    x = keep ? v : (r >> 40) % 2 ? T(0) : static_cast<T>(-v);
  }
  return items;
}

template <class T, class Pred>
void run_case(const char* label, const sel::Executable& exe, Pred pred, const bench::VsCub& run) {
  const int min_log = run.min_log, max_log = run.max_log;
  cudaStream_t stream = run.stream;
  std::printf("%s: layout n selected, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 13;
  const std::uint64_t max_n = 1ull << max_log;
  T* out = nullptr;
  std::int64_t* selected = nullptr;  // ours [0], CUB's [1]
  check_rt(cudaMalloc(&out, 2 * max_n * sizeof(T)), "malloc");
  check_rt(cudaMalloc(&selected, 2 * sizeof(std::int64_t)), "malloc");
  for (std::uint64_t keep_one_in : {2ull, 16ull}) {
    for (int lg = min_log; lg <= max_log; ++lg) {
      const std::uint64_t n = 1ull << lg;
      const auto n64 = static_cast<std::int64_t>(n);
      T* in = device_copy(make_items<T>(n, keep_one_in, seed));
      std::size_t ours_temp = exe.temp_storage_bytes(n), cub_temp = 0;
      check_rt(cub::DeviceSelect::If(nullptr, cub_temp, in, out, selected, n64, pred, stream), "cub query");
      void* temp = nullptr;
      check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
      const int reps = bench::VsCub::reps(n);
      const auto times = bench::rotating_times(2, reps, stream, [&](int who) {
        std::size_t bytes = who == 0 ? ours_temp : cub_temp;
        if (who == 0)
          bench::check_cu(exe(temp, bytes, in, out, selected, n, stream), "ours");
        else
          check_rt(cub::DeviceSelect::If(temp, bytes, in, out + n, selected + 1, n64, pred, stream), "cub");
      });
      std::int64_t got[2] = {};
      check_rt(cudaMemcpy(got, selected, sizeof(got), cudaMemcpyDeviceToHost), "d2h");
      const auto m = static_cast<std::uint64_t>(got[0]);
      std::vector<T> items(2 * n);
      check_rt(cudaMemcpy(items.data(), out, 2 * n * sizeof(T), cudaMemcpyDeviceToHost), "d2h");
      const bool same = got[0] == got[1] && m <= n && std::memcmp(items.data(), items.data() + n, m * sizeof(T)) == 0;
      const double o = times.gpu_ms[0], c = times.gpu_ms[1];
      std::printf("RESULT %s layout=keep%llu n=%llu selected=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f "
                  "ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                  label, (unsigned long long)(100 / keep_one_in), (unsigned long long)n, (unsigned long long)m, o,
                  c, o / c, times.host_us[0], times.host_us[1], same ? 1 : 0, ours_temp == cub_temp ? 1 : 0, reps);
      std::fflush(stdout);
      cudaFree(temp);
      cudaFree(in);
    }
  }
  cudaFree(selected);
  cudaFree(out);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "select");
  run.print_method("inputs", "ours and CUB DeviceSelect::If", "alternate", "int64 num_items and count");
  const auto exe = [&run](ScalarType t, Operator op) -> const sel::Executable& {
    sel::Spec spec;
    spec.type = t;
    spec.op = std::move(op);
    spec.selected_type = ScalarType::int64;
    return run.acquire(spec);
  };
  const Operator nonzero = Operator::of(cccl_cache::algos::OpKind::identity);
  run_case<std::int32_t>("int32_nonzero", exe(ScalarType::int32, nonzero), ::cuda::std::identity{}, run);
  run_case<std::int64_t>("int64_nonzero", exe(ScalarType::int64, nonzero), ::cuda::std::identity{}, run);
  run_case<float>("float32_positive",
                  exe(ScalarType::float32,
                      Operator::custom("positive", "__device__ bool positive(float x) { return x > 0.0f; }")),
                  Positive{}, run);
  return 0;
}
