// segmented_sort time of our bound executable against CUB's cub::DeviceSegmentedSort
// compiled here by nvcc (sm_90) against the same pinned CCCL, both with `const int*`
// offsets: float32 keys and uint32 keys with uint32 values, ascending, in segments of 2^4,
// 2^8, 2^12 and 2^18 items (above CUB's partitioning threshold of 500 segments CUB groups
// them by size and reads the group sizes on the host; at most 500 segments it runs one
// block per segment), 2^min..2^max items (default 10..28). Then rows: float32 keys in rows
// of 2^4, 2^8 and 2^12 items whose offsets are computed (row i = [R i, R i + R)): ours
// over transform(rowR, counting(int64)) offset iterators, ours over int64 offset arrays,
// and CUB over thrust transform iterators of counting iterators computing the same.
// Method: inputs stay in place, outputs apart per contender; CUDA events recorded before
// and after each call time it (GPU time, launch gaps and the partitioned path's host wait
// included); the host time of issuing the call is taken too. Ours and CUB alternate within
// every repetition; medians after two warm-up reps. Check: our output is bitwise equal to
// CUB's, and our temp-storage size equals CUB's.
// Usage: bench_segmented_sort_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_segmented_sort.cuh>
#include <string>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "vs_cub.hpp"

namespace ss = cccl_cache::algos::segmented_sort;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;
using bench::device_copy;

template <class K>
std::vector<K> make_keys(std::uint64_t n, std::uint64_t& seed) {
  std::vector<K> out(n);
  for (auto& k : out) {
    const std::uint64_t r = bench::splitmix(seed);
    if constexpr (std::is_floating_point_v<K>)
      k = static_cast<K>(static_cast<double>(r >> 11) / 9007199254740992.0);
    else
      k = static_cast<K>(r);
  }
  return out;
}

// Sorts n items in segments of `segment` items (the last shorter), keys only when V is
// void, and compares with CUB.
template <class K, class V>
void run_case(const char* label, const ss::Executable& exe, const bench::VsCub& run) {
  constexpr bool pairs = !std::is_void_v<V>;
  using Value = std::conditional_t<pairs, V, char>;
  cudaStream_t stream = run.stream;
  std::printf("%s: n, segment size, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 29;
  for (int lg = run.min_log; lg <= run.max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    K* keys = device_copy(make_keys<K>(n, seed));
    Value* values = pairs ? device_copy(make_keys<Value>(n, seed)) : nullptr;
    K* out = nullptr;  // ours [0, n), CUB's [n, 2n)
    Value* out_values = nullptr;
    check_rt(cudaMalloc(&out, 2 * n * sizeof(K)), "malloc");
    if (pairs) check_rt(cudaMalloc(&out_values, 2 * n * sizeof(Value)), "malloc");
    for (const int seg_log : {4, 8, 12, 18}) {
      const std::uint64_t segment = std::min<std::uint64_t>(n, 1ull << seg_log);
      const std::uint64_t segments = (n + segment - 1) / segment;
      std::vector<int> h_begin(segments), h_end(segments);
      for (std::uint64_t i = 0; i < segments; ++i)
        h_begin[i] = int(i * segment), h_end[i] = int(std::min(n, (i + 1) * segment));
      const int* begin = device_copy(h_begin);
      const int* end = device_copy(h_end);
      const int n32 = int(n), s32 = int(segments);
      auto cub_sort = [&](void* temp, std::size_t& bytes) {
        if constexpr (pairs)
          return cub::DeviceSegmentedSort::SortPairs(temp, bytes, keys, out + n, values, out_values + n, n32,
                                                     s32, begin, end, stream);
        else
          return cub::DeviceSegmentedSort::SortKeys(temp, bytes, keys, out + n, n32, s32, begin, end, stream);
      };
      const std::size_t ours_temp = exe.temp_storage_bytes(n, segments);
      std::size_t cub_temp = 0;
      check_rt(cub_sort(nullptr, cub_temp), "cub query");
      void* temp = nullptr;
      check_rt(cudaMalloc(&temp, std::max<std::size_t>(std::max(ours_temp, cub_temp), 1)), "malloc");
      const int reps = bench::VsCub::reps(n);
      const auto times = bench::rotating_times(2, reps, stream, [&](int who) {
        std::size_t bytes = who == 0 ? ours_temp : cub_temp;
        if (who == 0)
          bench::check_cu(exe(temp, bytes, keys, out, values, out_values, n, segments, begin, end, stream),
                          "ours");
        else
          check_rt(cub_sort(temp, bytes), "cub");
      });
      std::vector<K> got(2 * n);
      check_rt(cudaMemcpy(got.data(), out, 2 * n * sizeof(K), cudaMemcpyDeviceToHost), "d2h");
      bool same = std::memcmp(got.data(), got.data() + n, n * sizeof(K)) == 0;
      if (pairs) {
        std::vector<Value> got_values(2 * n);
        check_rt(cudaMemcpy(got_values.data(), out_values, 2 * n * sizeof(Value), cudaMemcpyDeviceToHost),
                 "d2h");
        same = same && std::memcmp(got_values.data(), got_values.data() + n, n * sizeof(Value)) == 0;
      }
      const double o = times.gpu_ms[0], c = times.gpu_ms[1];
      std::printf("RESULT %s n=%llu segment=%llu segments=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f "
                  "ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                  label, (unsigned long long)n, (unsigned long long)segment, (unsigned long long)segments, o, c,
                  o / c, times.host_us[0], times.host_us[1], same ? 1 : 0, ours_temp == cub_temp ? 1 : 0, reps);
      std::fflush(stdout);
      cudaFree(temp);
      cudaFree(const_cast<int*>(begin));
      cudaFree(const_cast<int*>(end));
      if (segment == n) break;  // larger segment sizes are the same single segment
    }
    cudaFree(out);
    cudaFree(out_values);
    cudaFree(keys);
    cudaFree(values);
  }
}

// R i: a row's first item.
struct RowStart {
  long long row;
  __host__ __device__ long long operator()(long long i) const { return row * i; }
};

// n float32 keys in rows of `row` items: ours over computed offsets (`rows_exe`), ours over
// int64 offset arrays (`arrays_exe`), CUB over thrust transform iterators.
void run_rows(long long row, const ss::Executable& rows_exe, const ss::Executable& arrays_exe,
              const bench::VsCub& run) {
  using cccl_cache::algos::IteratorKind;
  using cccl_cache::algos::IteratorValue;
  cudaStream_t stream = run.stream;
  std::uint64_t seed = 31;
  for (int lg = std::max(run.min_log, 12); lg <= run.max_log; ++lg) {
    const std::uint64_t n = 1ull << lg, segments = n / std::uint64_t(row);
    float* keys = device_copy(make_keys<float>(n, seed));
    float* out = nullptr;  // ours over iterators, ours over arrays, CUB: [0, n), [n, 2n), [2n, 3n)
    check_rt(cudaMalloc(&out, 3 * n * sizeof(float)), "malloc");
    std::vector<long long> h_begin(segments), h_end(segments);
    for (std::uint64_t i = 0; i < segments; ++i) h_begin[i] = row * i, h_end[i] = row * (i + 1);
    const long long* begin = device_copy(h_begin);
    const long long* end = device_copy(h_end);
    const auto it = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), RowStart{row});
    auto cub_sort = [&](void* temp, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::SortKeys(temp, bytes, keys, out + 2 * n, int(n), int(segments), it,
                                                it + 1, stream);
    };
    const std::size_t ours_temp = rows_exe.temp_storage_bytes(n, segments);
    std::size_t cub_temp = 0;
    check_rt(cub_sort(nullptr, cub_temp), "cub query");
    void* temp = nullptr;
    check_rt(cudaMalloc(&temp, std::max<std::size_t>(std::max(ours_temp, cub_temp), 1)), "malloc");
    const IteratorValue from0 = IteratorValue::of(IteratorKind::transform, std::int64_t{0});
    const IteratorValue from1 = IteratorValue::of(IteratorKind::transform, std::int64_t{1});
    const int reps = bench::VsCub::reps(n);
    const auto times = bench::rotating_times(3, reps, stream, [&](int who) {
      std::size_t bytes = who == 2 ? cub_temp : ours_temp;
      if (who == 0)
        bench::check_cu(rows_exe(temp, bytes, keys, out, nullptr, nullptr, n, segments, from0, from1, stream),
                        "ours over iterators");
      else if (who == 1)
        bench::check_cu(arrays_exe(temp, bytes, keys, out + n, nullptr, nullptr, n, segments, begin, end, stream),
                        "ours over arrays");
      else
        check_rt(cub_sort(temp, bytes), "cub");
    });
    std::vector<float> got(3 * n);
    check_rt(cudaMemcpy(got.data(), out, 3 * n * sizeof(float), cudaMemcpyDeviceToHost), "d2h");
    const bool same = std::memcmp(got.data(), got.data() + 2 * n, n * sizeof(float)) == 0 &&
                      std::memcmp(got.data() + n, got.data() + 2 * n, n * sizeof(float)) == 0;
    const double o = times.gpu_ms[0], a = times.gpu_ms[1], c = times.gpu_ms[2];
    std::printf("RESULT rows n=%llu row=%lld segments=%llu ours_iter_ms=%.5f ours_array_ms=%.5f cub_ms=%.5f "
                "ratio=%.4f iter_over_array=%.4f ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d "
                "reps=%d\n",
                (unsigned long long)n, row, (unsigned long long)segments, o, a, c, o / c, o / a,
                times.host_us[0], times.host_us[2], same ? 1 : 0, ours_temp == cub_temp ? 1 : 0, reps);
    std::fflush(stdout);
    cudaFree(temp);
    cudaFree(const_cast<long long*>(begin));
    cudaFree(const_cast<long long*>(end));
    cudaFree(out);
    cudaFree(keys);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "segmented_sort");
  run.print_method("keys, values and offsets", "ours and CUB DeviceSegmentedSort", "alternate",
                   "int num_items and num_segments, const int* offsets, ascending");
  const auto exe = [&run](ScalarType key, ScalarType value) -> const ss::Executable& {
    ss::Spec spec;
    spec.key_type = key;
    spec.value_type = value;
    spec.offset_type = ScalarType::int32;
    return run.acquire(spec);
  };
  run_case<float, void>("float32_keys", exe(ScalarType::float32, ScalarType::none), run);
  run_case<std::uint32_t, std::uint32_t>("uint32_pairs", exe(ScalarType::uint32, ScalarType::uint32), run);

  std::printf("rows: n, row size, ours over offset iterators / ours over int64 arrays / CUB over thrust "
              "transform iterators: GPU ms (median), host us per call\n");
  ss::Spec arrays;
  arrays.offset_type = ScalarType::int64;
  const ss::Executable& arrays_exe = run.acquire(arrays);
  for (const long long row : {16ll, 256ll, 4096ll}) {
    const std::string name = "row" + std::to_string(row);
    ss::Spec rows = arrays;
    rows.begin_offsets = rows.end_offsets = cccl_cache::algos::Iterator::transform(
        cccl_cache::algos::Operator::custom(
            name, "__device__ long long " + name + "(long long i) { return " + std::to_string(row) + " * i; }"),
        ScalarType::int64, true);
    run_rows(row, run.acquire(rows), arrays_exe, run);
  }
  return 0;
}
