// Benchmark 3: sort time of our bound merge sort against CUB's DeviceMergeSort
// compiled by nvcc (sm_90), same types: float32 keys (less) and int64 keys with
// uint32 values (less), sizes 2^11 .. 2^max (default 28). Offsets: CUB called with
// an int64 count sorts with uint64 offsets (detail::choose_offset_t), so ours uses
// uint64 too; int64 keys + uint32 values with int64 (signed) offsets are timed as
// well, to show what the offset type costs.
// Method: before every sort the unsorted input is copied (device to device) into the
// buffer sorted in place; CUDA events recorded after the copy and after the sort time
// the sort alone. Ours and CUB alternate within every repetition; median over reps.
// Check: our output is bitwise equal to CUB's and sorted (and equal to std::sort on
// the host up to 2^22).
// Codegen A/B (--alt LABEL KEYS.cubin PAIRS.cubin, repeatable; inputs from
// bench/codegen_ab.sh): more contenders, our build result with its cubin replaced by
// the same kernels compiled another way, bound and dispatched exactly like ours:
// separates code generation from dispatch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "bench_util.hpp"
#include "merge_sort_cub_ref.hpp"
#include "vs_cub.hpp"

namespace ms = cccl_cache::algos::merge_sort;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;

// One type: K keys, V values (void: keys only).
struct Alt {
  std::string label;
  ms::Executable exe;
};

template <class K, class V>
void run_type(const char* label, const char* prefix, const ms::Executable& exe,
              const std::vector<Alt>& alts, int min_log, int max_log, cudaStream_t stream) {
  constexpr bool pairs = !std::is_void_v<V>;
  constexpr std::size_t vsize = pairs ? sizeof(std::conditional_t<pairs, V, char>) : 0;
  std::printf("%s: n, ours ms (median), CUB ms (median), ours/CUB, check\n", label);
  bench::EventTimer t;
  std::uint64_t seed = 42;
  for (int lg = min_log; lg <= max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    std::vector<K> keys = bench::random_keys<K>(n, seed);
    std::vector<std::uint32_t> vals(pairs ? n : 0);
    for (std::uint64_t i = 0; i < vals.size(); ++i) vals[i] = static_cast<std::uint32_t>(i);
    std::size_t ours_temp = exe.temp_storage_bytes(n), cub_temp = 0;
    if constexpr (pairs)
      bench::cub_sort_int64_pairs(nullptr, cub_temp, nullptr, nullptr, static_cast<std::int64_t>(n),
                                  stream);
    else
      bench::cub_sort_float_keys(nullptr, cub_temp, nullptr, static_cast<std::int64_t>(n), stream);
    void *src_k, *work_k, *src_v = nullptr, *work_v = nullptr, *temp;
    check_rt(cudaMalloc(&src_k, n * sizeof(K)), "malloc");
    check_rt(cudaMalloc(&work_k, n * sizeof(K)), "malloc");
    if (pairs) {
      check_rt(cudaMalloc(&src_v, n * vsize), "malloc");
      check_rt(cudaMalloc(&work_v, n * vsize), "malloc");
    }
    check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
    check_rt(cudaMemcpy(src_k, keys.data(), n * sizeof(K), cudaMemcpyHostToDevice), "copy");
    if (pairs) check_rt(cudaMemcpy(src_v, vals.data(), n * vsize, cudaMemcpyHostToDevice), "copy");
    const int contenders = 2 + static_cast<int>(alts.size());  // 0 ours, 1 CUB, 2.. alts
    std::vector<std::vector<double>> times(contenders);
    std::vector<std::vector<K>> outs(contenders, std::vector<K>(n));
    std::vector<std::vector<std::uint32_t>> out_vals(contenders,
                                                     std::vector<std::uint32_t>(pairs ? n : 0));
    const int reps = bench::reps_for(n);
    for (int r = 0; r < reps + 2; ++r) {  // two warm-up reps
      for (int slot = 0; slot < contenders; ++slot) {
        const int who = (slot + r) % contenders;  // the order rotates every rep
        const bool ours = who != 1;
        const ms::Executable& e = who >= 2 ? alts[who - 2].exe : exe;
        check_rt(cudaMemcpyAsync(work_k, src_k, n * sizeof(K), cudaMemcpyDeviceToDevice, stream),
                 "d2d");
        if (pairs)
          check_rt(cudaMemcpyAsync(work_v, src_v, n * vsize, cudaMemcpyDeviceToDevice, stream),
                   "d2d");
        t.start(stream);
        if (ours) {
          std::size_t b = ours_temp;
          bench::check_cu(e(temp, b, work_k, work_v, work_k, work_v, n, stream), "ours sort");
        } else {
          std::size_t b = cub_temp;
          int e = pairs ? bench::cub_sort_int64_pairs(temp, b, static_cast<std::int64_t*>(work_k),
                                                      static_cast<std::uint32_t*>(work_v),
                                                      static_cast<std::int64_t>(n), stream)
                        : bench::cub_sort_float_keys(temp, b, static_cast<float*>(work_k),
                                                     static_cast<std::int64_t>(n), stream);
          check_rt(static_cast<cudaError_t>(e), "cub sort");
        }
        const float ms = t.stop(stream);
        if (r >= 2) times[who].push_back(ms);
        if (r == reps + 1) {
          check_rt(cudaMemcpy(outs[who].data(), work_k, n * sizeof(K), cudaMemcpyDeviceToHost),
                   "d2h");
          if (pairs)
            check_rt(cudaMemcpy(out_vals[who].data(), work_v, n * vsize, cudaMemcpyDeviceToHost),
                     "d2h");
        }
      }
    }
    const auto& ours_out = outs[0];
    const auto& cub_out = outs[1];
    bool ok = std::memcmp(ours_out.data(), cub_out.data(), n * sizeof(K)) == 0 &&
              out_vals[0] == out_vals[1] && std::is_sorted(ours_out.begin(), ours_out.end());
    if (ok && lg <= 22) {
      std::sort(keys.begin(), keys.end());
      ok = std::memcmp(keys.data(), ours_out.data(), n * sizeof(K)) == 0;
    }
    const double o = bench::median(times[0]), c = bench::median(times[1]);
    std::printf(
        "RESULT %sn=%llu %sours_ms=%.5f %scub_ms=%.5f %sratio=%.4f %scheck=%d %stemp_equal=%d "
        "reps=%d\n",
        prefix, (unsigned long long)n, prefix, o, prefix, c, prefix, o / c, prefix, ok ? 1 : 0,
        prefix, ours_temp == cub_temp ? 1 : 0, reps);
    for (std::size_t a = 0; a < alts.size(); ++a) {
      const bool same = std::memcmp(outs[a + 2].data(), cub_out.data(), n * sizeof(K)) == 0 &&
                        out_vals[a + 2] == out_vals[1];
      const double v = bench::median(times[a + 2]);
      const char* l = alts[a].label.c_str();
      std::printf("RESULT %sn=%llu %s%s_ms=%.5f %s%s_ratio=%.4f %s%s_check=%d\n", prefix,
                  (unsigned long long)n, prefix, l, v, prefix, l, v / c, prefix, l, same ? 1 : 0);
    }
    std::fflush(stdout);
    cudaFree(src_k);
    cudaFree(work_k);
    cudaFree(src_v);
    cudaFree(work_v);
    cudaFree(temp);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int max_log = argc > 1 ? std::atoi(argv[1]) : 28;
  struct AltFiles {
    std::string label, keys, pairs;
  };
  std::vector<AltFiles> alt_files;
  for (int i = 2; i + 3 < argc && std::string(argv[i]) == "--alt"; i += 4)
    alt_files.push_back({argv[i + 1], argv[i + 2], argv[i + 3]});
  const int min_log = 11;
  int cc = 0;
  bench::gpu_context(&cc);
  check_rt(cudaSetDevice(0), "cudaSetDevice");
  auto store = bench::open_store(bench::bench_dir("sort") / "store");
  cccl_cache::algos::AlgorithmCache cache(store);
  ms::Spec keys_spec;  // float32, less
  keys_spec.offset_type = ScalarType::uint64;
  ms::Spec pairs_spec;
  pairs_spec.key_type = ScalarType::int64;
  pairs_spec.value_type = ScalarType::uint32;
  pairs_spec.offset_type = ScalarType::uint64;
  ms::Spec pairs_signed = pairs_spec;
  pairs_signed.offset_type = ScalarType::int64;
  auto keys_exe = cache.acquire(keys_spec, 0);
  auto pairs_exe = cache.acquire(pairs_spec, 0);
  auto signed_exe = cache.acquire(pairs_signed, 0);
  if (!keys_exe) bench::die(keys_exe.error().describe());
  if (!pairs_exe) bench::die(pairs_exe.error().describe());
  if (!signed_exe) bench::die(signed_exe.error().describe());
  std::vector<Alt> keys_alts, pairs_alts;
  for (const auto& f : alt_files) {
    keys_alts.push_back({f.label, bench::with_cubin(keys_spec, cc, f.keys)});
    pairs_alts.push_back({f.label, bench::with_cubin(pairs_spec, cc, f.pairs)});
  }
  cudaStream_t stream;
  check_rt(cudaStreamCreate(&stream), "stream");
  std::printf(
      "Method: sort time with CUDA events around the sort only; the unsorted input is re-copied "
      "(D2D) "
      "before every sort, outside the events; ours and CUB (nvcc sm_90, cub::DeviceMergeSort) "
      "alternate "
      "each rep; median of reps (100 up to 2^20, 30 up to 2^24, 11 above) after 2 warm-up reps; "
      "offsets uint64 as CUB picks for an int64 count; sm_%d\n",
      cc);
  run_type<float, void>("float32 keys", "", **keys_exe, keys_alts, min_log, max_log, stream);
  run_type<std::int64_t, std::uint32_t>("int64 keys + uint32 values", "pairs_", **pairs_exe,
                                        pairs_alts, min_log, max_log, stream);
  run_type<std::int64_t, std::uint32_t>("int64 keys + uint32 values, ours with int64 offsets",
                                        "pairs_i64off_", **signed_exe, {}, min_log, max_log, stream);
  cudaStreamDestroy(stream);
  return 0;
}
