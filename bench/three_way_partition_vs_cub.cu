// three-way partition time of our bound executable against CUB's cub::DevicePartition::If
// with two predicates compiled here by nvcc (sm_90) against the same pinned CCCL: int32
// and int64 items with a custom first predicate (x < 0) and the identity second (nonzero
// items), float32 items with two custom predicates (x > 0, x > -500), our CUDA C++ source
// against the same functors compiled by nvcc; an int64 count; 2^min..2^max items (default
// 10..28) in two layouts: a third of the items in each part at random ("thirds") and one
// in sixteen outside the unselected part ("sparse").
// Method: inputs stay in place, outputs apart per contender; CUDA events recorded before
// and after each call time it (GPU time, launch gaps included); the host time of issuing
// the call is taken too. Ours and CUB alternate within every repetition; medians after
// two warm-up reps. Check: our three parts and two counts are bitwise equal to CUB's, and
// our temp-storage size equals CUB's.
// Usage: bench_three_way_partition_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_partition.cuh>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "bench_util.hpp"
#include "vs_cub.hpp"

namespace twp = cccl_cache::algos::three_way_partition;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;
using bench::device_copy;

// What our predicates say, as nvcc compiles them for CUB: identity converts to bool.
struct Nonzero {
  template <class T>
  __device__ bool operator()(T x) const { return static_cast<bool>(x); }
};
struct Negative {
  template <class T>
  __device__ bool operator()(T x) const { return x < T(0); }
};
struct Positive {
  __device__ bool operator()(float x) const { return x > 0.0f; }
};
struct AboveMinus500 {
  __device__ bool operator()(float x) const { return x > -500.0f; }
};

// n items, about one in `selected_one_in` of them nonzero; the nonzero ones negative or
// positive at random, so that each predicate pair splits them into both selected parts.
template <class T>
std::vector<T> make_items(std::uint64_t n, std::uint64_t selected_one_in, std::uint64_t& seed) {
  std::vector<T> items(n);
  for (auto& x : items) {
    const std::uint64_t r = bench::splitmix(seed);
    const auto v = static_cast<T>(1 + (r >> 16) % 1000);
    x = r % selected_one_in != 0 ? T(0) : (r >> 40) % 2 ? v : static_cast<T>(-v);
  }
  return items;
}

template <class T, class First, class Second>
void run_case(const char* label, const twp::Executable& exe, First first, Second second,
              const bench::VsCub& run) {
  const int min_log = run.min_log, max_log = run.max_log;
  cudaStream_t stream = run.stream;
  std::printf("%s: layout n first second, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 17;
  const std::uint64_t max_n = 1ull << max_log;
  T* out = nullptr;                  // ours [0, 3 max_n), CUB's [3 max_n, 6 max_n): three parts each
  std::int64_t* selected = nullptr;  // ours [0, 2), CUB's [2, 4)
  check_rt(cudaMalloc(&out, 6 * max_n * sizeof(T)), "malloc");
  check_rt(cudaMalloc(&selected, 4 * sizeof(std::int64_t)), "malloc");
  for (std::uint64_t selected_one_in : {1ull, 16ull}) {
    for (int lg = min_log; lg <= max_log; ++lg) {
      const std::uint64_t n = 1ull << lg;
      const auto n64 = static_cast<std::int64_t>(n);
      T* in = device_copy(make_items<T>(n, selected_one_in, seed));
      T* ours = out;
      T* cubs = out + 3 * n;
      std::size_t ours_temp = exe.temp_storage_bytes(n), cub_temp = 0;
      check_rt(cub::DevicePartition::If(nullptr, cub_temp, in, cubs, cubs + n, cubs + 2 * n, selected + 2, n64,
                                        first, second, stream),
               "cub query");
      void* temp = nullptr;
      check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
      const int reps = bench::VsCub::reps(n);
      const auto times = bench::rotating_times(2, reps, stream, [&](int who) {
        std::size_t bytes = who == 0 ? ours_temp : cub_temp;
        if (who == 0)
          bench::check_cu(exe(temp, bytes, in, ours, ours + n, ours + 2 * n, selected, n, stream), "ours");
        else
          check_rt(cub::DevicePartition::If(temp, bytes, in, cubs, cubs + n, cubs + 2 * n, selected + 2, n64,
                                            first, second, stream),
                   "cub");
      });
      std::int64_t got[4] = {};
      check_rt(cudaMemcpy(got, selected, sizeof(got), cudaMemcpyDeviceToHost), "d2h");
      std::vector<T> items(6 * n);
      check_rt(cudaMemcpy(items.data(), out, 6 * n * sizeof(T), cudaMemcpyDeviceToHost), "d2h");
      const auto a = static_cast<std::uint64_t>(got[0]), b = static_cast<std::uint64_t>(got[1]);
      bool same = got[0] == got[2] && got[1] == got[3] && a + b <= n;
      const std::uint64_t sizes[3] = {a, b, n - a - b};
      for (int p = 0; same && p < 3; ++p)
        same = std::memcmp(items.data() + p * n, items.data() + (3 + p) * n, sizes[p] * sizeof(T)) == 0;
      const double o = times.gpu_ms[0], c = times.gpu_ms[1];
      std::printf("RESULT %s layout=%s n=%llu first=%llu second=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f "
                  "ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                  label, selected_one_in == 1 ? "thirds" : "sparse", (unsigned long long)n,
                  (unsigned long long)a, (unsigned long long)b, o, c, o / c, times.host_us[0], times.host_us[1],
                  same ? 1 : 0, ours_temp == cub_temp ? 1 : 0, reps);
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
  bench::VsCub run(argc, argv, "three_way_partition");
  run.print_method("inputs", "ours and CUB DevicePartition::If (two predicates)", "alternate",
                   "int64 num_items and counts");
  const auto exe = [&run](ScalarType t, Operator first, Operator second) -> const twp::Executable& {
    twp::Spec spec;
    spec.type = t;
    spec.first_op = std::move(first);
    spec.second_op = std::move(second);
    spec.selected_type = ScalarType::int64;
    return run.acquire(spec);
  };
  const Operator nonzero = Operator::of(cccl_cache::algos::OpKind::identity);
  const auto negative = [](const char* type) {
    return Operator::custom("negative", std::string("__device__ bool negative(") + type + " x) { return x < 0; }");
  };
  run_case<std::int32_t>("int32_negative_nonzero", exe(ScalarType::int32, negative("int"), nonzero), Negative{},
                         Nonzero{}, run);
  run_case<std::int64_t>("int64_negative_nonzero", exe(ScalarType::int64, negative("long long"), nonzero),
                         Negative{}, Nonzero{}, run);
  run_case<float>("float32_positive_above",
                  exe(ScalarType::float32,
                      Operator::custom("positive", "__device__ bool positive(float x) { return x > 0.0f; }"),
                      Operator::custom("above", "__device__ bool above(float x) { return x > -500.0f; }")),
                  Positive{}, AboveMinus500{}, run);
  return 0;
}
