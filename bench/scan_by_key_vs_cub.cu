// scan_by_key time of our bound executable against CUB's cub::DeviceScan::InclusiveScanByKey
// / ExclusiveScanByKey compiled here by nvcc (sm_90) against the same pinned CCCL: int32
// keys with int32 values under plus (inclusive, and exclusive from 0), int64 keys with
// float64 values under maximum (inclusive), int32 keys with 8- and 16-byte {value, index}
// struct values under an argmax (inclusive), equal_to, int64 num_items (CUB's unsigned
// long long offset), 2^min..2^max items (default 10..28) in two layouts: runs of random
// length in [1, 8] ("run8") and in [1, 1024] ("run1024").
// Method: inputs stay in place, outputs apart per contender; CUDA events recorded before
// and after each call time it (GPU time, launch gaps included); the host time of issuing
// the call is taken too. Ours and CUB alternate within every repetition; medians after
// two warm-up reps. Check: our values are bitwise equal to CUB's, and our temp-storage
// size equals CUB's.
// Usage: bench_scan_by_key_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "struct_argmax.hpp"
#include "vs_cub.hpp"

namespace sbk = cccl_cache::algos::scan_by_key;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;
using bench::device_copy;

// CUB's call for contender 1: inclusive, or exclusive from V{} (Op is CUB's own
// function object for the spec's operator).
template <class K, class V, class Op>
cudaError_t cub_call(bool exclusive, void* temp, std::size_t& bytes, const K* k, const V* v, V* out,
                     std::int64_t n, Op op, cudaStream_t stream) {
  if (exclusive)
    return cub::DeviceScan::ExclusiveScanByKey(temp, bytes, k, v, out, op, V{}, n,
                                               ::cuda::std::equal_to<>{}, stream);
  return cub::DeviceScan::InclusiveScanByKey(temp, bytes, k, v, out, op, n,
                                             ::cuda::std::equal_to<>{}, stream);
}

template <class K, class V, class Op>
void run_case(const char* label, const sbk::Executable& exe, bool exclusive, Op op,
              const bench::VsCub& run) {
  const int min_log = run.min_log, max_log = run.max_log;
  cudaStream_t stream = run.stream;
  std::printf("%s: layout n, ours / CUB: GPU ms (median), host us per call\n", label);
  std::uint64_t seed = 13;
  const std::uint64_t max_n = 1ull << max_log;
  std::vector<V> values(max_n);
  for (auto& v : values) {
    if constexpr (std::is_class_v<V>)
      v = bench::random_argmax_item<V>(bench::splitmix(seed));
    else
      v = static_cast<V>(bench::splitmix(seed) % 1000003);
  }
  V* v_in = device_copy(values);
  const V init{};
  // Contender c (0 ours, 1 CUB) writes at offset c * n.
  V* v_out = nullptr;
  check_rt(cudaMalloc(&v_out, 2 * max_n * sizeof(V)), "malloc");
  for (std::uint64_t max_run : {8ull, 1024ull}) {
    for (int lg = min_log; lg <= max_log; ++lg) {
      const std::uint64_t n = 1ull << lg;
      const auto n64 = static_cast<std::int64_t>(n);
      K* k_in = device_copy(bench::run_keys<K>(n, max_run, seed));
      std::size_t ours_temp = exe.temp_storage_bytes(n), cub_temp = 0;
      check_rt(cub_call(exclusive, nullptr, cub_temp, k_in, v_in, v_out, n64, op, stream), "cub query");
      void* temp = nullptr;
      check_rt(cudaMalloc(&temp, std::max(ours_temp, cub_temp)), "malloc");
      const int reps = bench::VsCub::reps(n);
      const auto times = bench::rotating_times(2, reps, stream, [&](int who) {
        std::size_t bytes = who == 1 ? cub_temp : ours_temp;
        V* out = v_out + who * n;
        if (who == 1)
          check_rt(cub_call(exclusive, temp, bytes, k_in, v_in, out, n64, op, stream), "cub");
        else
          bench::check_cu(exe(temp, bytes, k_in, v_in, out, n, exclusive ? &init : nullptr, stream),
                          "ours");
      });
      std::vector<V> vals(2 * n);
      check_rt(cudaMemcpy(vals.data(), v_out, vals.size() * sizeof(V), cudaMemcpyDeviceToHost), "d2h");
      const bool same = std::memcmp(vals.data(), vals.data() + n, n * sizeof(V)) == 0;
      const double o = times.gpu_ms[0], c = times.gpu_ms[1];
      std::printf("RESULT %s layout=run%llu n=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f "
                  "ours_host_us=%.2f cub_host_us=%.2f check=%d temp_equal=%d reps=%d\n",
                  label, (unsigned long long)max_run, (unsigned long long)n, o, c, o / c,
                  times.host_us[0], times.host_us[1], same ? 1 : 0, ours_temp == cub_temp ? 1 : 0,
                  reps);
      std::fflush(stdout);
      cudaFree(temp);
      cudaFree(k_in);
    }
  }
  cudaFree(v_out);
  cudaFree(v_in);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "scan_by_key");
  const auto spec_of = [](ScalarType k, ScalarType v, Operator op, bool exclusive) {
    sbk::Spec spec;
    spec.key_type = k;
    spec.value_type = v;
    spec.op = op;
    spec.exclusive = exclusive;
    spec.offset_type = ScalarType::uint64;
    return spec;
  };
  run.print_method("inputs", "ours and CUB DeviceScan::*ScanByKey", "alternate", "int64 num_items");
  run_case<std::int32_t, std::int32_t>(
      "int32_int32_plus_inclusive",
      run.acquire(spec_of(ScalarType::int32, ScalarType::int32, Operator::plus(), false)), false,
      ::cuda::std::plus<>{}, run);
  run_case<std::int32_t, std::int32_t>(
      "int32_int32_plus_exclusive",
      run.acquire(spec_of(ScalarType::int32, ScalarType::int32, Operator::plus(), true)), true,
      ::cuda::std::plus<>{}, run);
  run_case<std::int64_t, double>(
      "int64_float64_maximum_inclusive",
      run.acquire(spec_of(ScalarType::int64, ScalarType::float64, Operator::of(OpKind::maximum), false)),
      false, ::cuda::maximum<>{}, run);
  // Struct values: a running argmax per run, 8-byte {float, int} (single-word tile state)
  // and 16-byte {double, long long} (multi-word), inclusive.
  const auto struct_spec = [&](const char* name, const char* def, std::uint32_t size, std::uint32_t align,
                               const char* op, const char* src) {
    sbk::Spec spec = spec_of(ScalarType::int32, ScalarType::int32, Operator::custom(op, src), false);
    spec.value_type = cccl_cache::algos::ElementType::structure(name, def, size, align);
    return spec;
  };
  run_case<std::int32_t, bench::vi>(
      "int32_vi_argmax_inclusive",
      run.acquire(struct_spec("vi", bench::kViDef, sizeof(bench::vi), alignof(bench::vi), "argmax",
                              bench::kArgMaxSrc)),
      false, bench::ArgMax{}, run);
  run_case<std::int32_t, bench::vl>(
      "int32_vl_argmax_inclusive",
      run.acquire(struct_spec("vl", bench::kVlDef, sizeof(bench::vl), alignof(bench::vl), "argmax_vl",
                              bench::kArgMaxVlSrc)),
      false, bench::ArgMax{}, run);
  return 0;
}
