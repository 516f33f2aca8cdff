// unique_by_key time of our bound executable against CUB's cub::DeviceSelect::UniqueByKey
// compiled here by nvcc (sm_90) against the same pinned CCCL: int32 keys with int32
// values, int64 keys with int64 values and float32 keys with float64 values, equal_to,
// int64 num_items (CUB's unsigned long long offset) and an int64 count, 2^min..2^max
// items (default 10..28) in two layouts: runs of random length in [1, 8] ("run8") and in
// [1, 1024] ("run1024").
// Method: inputs stay in place, outputs apart per contender; CUDA events recorded before
// and after each call time it (GPU time, launch gaps included); the host time of issuing
// the call is taken too. Ours and CUB alternate within every repetition; medians after
// two warm-up reps. Check: our keys, values and number selected are bitwise equal to
// CUB's, and our temp-storage size equals CUB's.
// Codegen A/B (--alt LABEL INT64.cubin, repeatable; inputs from bench/unique_by_key_ab.sh):
// for int64 keys and values, more contenders: our build result with its cubin replaced by
// the same kernels compiled another way, bound and dispatched exactly like ours (ALT lines,
// checked against CUB's output as ours is).
// Usage: bench_unique_by_key_vs_cub [max_log [min_log [--alt LABEL INT64.cubin]...]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "bench_util.hpp"
#include "vs_cub.hpp"

namespace ubk = cccl_cache::algos::unique_by_key;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;
using bench::device_copy;

struct Alt {
  std::string label;
  ubk::Executable exe;
};

template <class K, class V>
void run_case(const char* label, const ubk::Executable& exe, const bench::VsCub& run,
              const std::vector<Alt>& alts = {}) {
  const int min_log = run.min_log, max_log = run.max_log;
  cudaStream_t stream = run.stream;
  std::printf("%s: layout n selected, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 11;
  const std::uint64_t max_n = 1ull << max_log;
  std::vector<V> values(max_n);
  for (auto& v : values) v = static_cast<V>(bench::splitmix(seed) % 1000003);
  V* v_in = device_copy(values);
  K *k_out = nullptr, *k_in = nullptr;
  V* v_out = nullptr;
  // Contender c (0 ours, 1 CUB, 2.. the alts) writes at offset c * n and selected[c].
  const int contenders = 2 + static_cast<int>(alts.size());
  std::int64_t* selected = nullptr;
  check_rt(cudaMalloc(&k_out, contenders * max_n * sizeof(K)), "malloc");
  check_rt(cudaMalloc(&v_out, contenders * max_n * sizeof(V)), "malloc");
  check_rt(cudaMalloc(&selected, contenders * sizeof(std::int64_t)), "malloc");
  for (std::uint64_t max_run : {8ull, 1024ull}) {
    for (int lg = min_log; lg <= max_log; ++lg) {
      const std::uint64_t n = 1ull << lg;
      const auto n64 = static_cast<std::int64_t>(n);
      k_in = device_copy(bench::run_keys<K>(n, max_run, seed));
      std::size_t ours_temp = exe.temp_storage_bytes(n), cub_temp = 0;
      check_rt(cub::DeviceSelect::UniqueByKey(nullptr, cub_temp, k_in, v_in, k_out, v_out, selected,
                                              n64, ::cuda::std::equal_to<>{}, stream),
               "cub query");
      void* temp = nullptr;
      check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
      const int reps = bench::VsCub::reps(n);
      const auto times = bench::rotating_times(contenders, reps, stream, [&](int who) {
        std::size_t bytes = who == 1 ? cub_temp : ours_temp;
        K* ko = k_out + who * n;
        V* vo = v_out + who * n;
        if (who == 1)
          check_rt(cub::DeviceSelect::UniqueByKey(temp, bytes, k_in, v_in, ko, vo, selected + 1, n64,
                                                  ::cuda::std::equal_to<>{}, stream),
                   "cub");
        else
          bench::check_cu((who == 0 ? exe : alts[who - 2].exe)(temp, bytes, k_in, v_in, ko, vo,
                                                               selected + who, n, stream),
                          who == 0 ? "ours" : "alt");
      });
      std::vector<std::int64_t> sel(contenders);
      check_rt(cudaMemcpy(sel.data(), selected, contenders * sizeof(std::int64_t), cudaMemcpyDeviceToHost),
               "d2h");
      std::vector<K> keys(contenders * n);
      std::vector<V> vals(contenders * n);
      check_rt(cudaMemcpy(keys.data(), k_out, keys.size() * sizeof(K), cudaMemcpyDeviceToHost), "d2h");
      check_rt(cudaMemcpy(vals.data(), v_out, vals.size() * sizeof(V), cudaMemcpyDeviceToHost), "d2h");
      // Contender `who`'s output bitwise equal to CUB's.
      auto same_as_cub = [&](int who) {
        const auto m = static_cast<std::uint64_t>(sel[who]);
        return sel[who] == sel[1] && m <= n &&
               std::memcmp(keys.data() + who * n, keys.data() + n, m * sizeof(K)) == 0 &&
               std::memcmp(vals.data() + who * n, vals.data() + n, m * sizeof(V)) == 0;
      };
      const auto m = static_cast<std::uint64_t>(sel[0]);
      const bool same = same_as_cub(0);
      const double o = times.gpu_ms[0], c = times.gpu_ms[1];
      std::printf("RESULT %s layout=run%llu n=%llu selected=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f "
                  "ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                  label, (unsigned long long)max_run, (unsigned long long)n, (unsigned long long)m, o, c,
                  o / c, times.host_us[0], times.host_us[1], same ? 1 : 0,
                  ours_temp == cub_temp ? 1 : 0, reps);
      for (int a = 2; a < contenders; ++a)
        std::printf("ALT %s %s layout=run%llu n=%llu alt_ms=%.5f cub_ms=%.5f ratio=%.4f check=%d\n",
                    alts[a - 2].label.c_str(), label, (unsigned long long)max_run, (unsigned long long)n,
                    times.gpu_ms[a], c, times.gpu_ms[a] / c, same_as_cub(a) ? 1 : 0);
      std::fflush(stdout);
      cudaFree(temp);
      cudaFree(k_in);
    }
  }
  cudaFree(selected);
  cudaFree(v_out);
  cudaFree(k_out);
  cudaFree(v_in);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "unique_by_key");
  const auto spec_of = [](ScalarType k, ScalarType v) {
    ubk::Spec spec;
    spec.key_type = k;
    spec.value_type = v;
    spec.offset_type = ScalarType::uint64;
    spec.selected_type = ScalarType::int64;
    return spec;
  };
  std::vector<Alt> alts;  // --alt LABEL INT64.cubin (after max_log and min_log)
  for (int i = 3; i < argc; i += 3) {
    if (std::string(argv[i]) != "--alt" || i + 2 >= argc)
      bench::die(std::string("expected --alt LABEL INT64.cubin at ") + argv[i]);
    alts.push_back({argv[i + 1], bench::with_cubin(spec_of(ScalarType::int64, ScalarType::int64), run.cc,
                                                   argv[i + 2])});
  }
  run.print_method("inputs", "ours and CUB DeviceSelect::UniqueByKey", "alternate",
                   "int64 num_items and count");
  const auto exe = [&](ScalarType k, ScalarType v) -> const ubk::Executable& {
    return run.acquire(spec_of(k, v));
  };
  run_case<std::int32_t, std::int32_t>("int32_int32", exe(ScalarType::int32, ScalarType::int32), run);
  run_case<std::int64_t, std::int64_t>("int64_int64", exe(ScalarType::int64, ScalarType::int64), run,
                                       alts);
  run_case<float, double>("float32_float64", exe(ScalarType::float32, ScalarType::float64), run);
  return 0;
}
