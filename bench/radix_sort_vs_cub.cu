// Sort time of our bound radix sort against CUB's DeviceRadixSort compiled by nvcc
// (sm_90) from the same pinned CCCL, side by side in one run: float32 keys, int64 keys,
// uint32 keys with uint32 values, and an argsort (float32 keys, int32 values counting
// from 0), ascending, all bits, sizes 2^min .. 2^max (default 10 .. 28). CUB is called with an int count, so it sorts with uint32 offsets
// (choose_offset_t), as ours (offset=uint32, the spec's default).
// Method: both take the plain form (input -> output; the input is left intact, so no
// copy between reps); CUDA events around each sort; ours and CUB alternate within every
// repetition; median over reps. Check: our keys (and values) are bitwise equal to CUB's,
// and the temp-storage sizes equal. The argsort's CUB contender is what a CUB user writes:
// cub::DeviceFor::Bulk fills 0..n-1 into the front of the temp storage, then SortPairs;
// ours lays its temp storage out the same way ([values | CUB's]).
// Usage: bench_radix_sort_vs_cub [max_log=28] [min_log=10]
#include <cub/device/device_for.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <cstring>
#include <vector>

#include "cccl_cache/algos/radix_sort/executable.hpp"
#include "bench_util.hpp"

namespace rs = cccl_cache::algos::radix_sort;
using cccl_cache::algos::ScalarType;

namespace {

using bench::check_rt;

// CUB's own call for K keys and V values (void: keys only).
template <class K, class V>
cudaError_t cub_sort(void* temp, std::size_t& bytes, const K* in, K* out, const V* vin, V* vout,
                     int n, cudaStream_t s) {
  if constexpr (std::is_void_v<V>)
    return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, int(sizeof(K) * 8), s);
  else
    return cub::DeviceRadixSort::SortPairs(temp, bytes, in, out, vin, vout, n, 0,
                                           int(sizeof(K) * 8), s);
}

// The argsort's fill for CUB: v[i] = i.
template <class V>
struct Iota {
  V* v;
  __device__ void operator()(V i) const { v[i] = i; }
};

constexpr std::size_t round_up_256(std::size_t b) { return (b + 255) / 256 * 256; }

template <class K, class V>
void run_type(const char* label, ScalarType key, ScalarType value, std::uint32_t cc, int min_log,
              int max_log, cudaStream_t stream, bool argsort = false) {
  constexpr bool pairs = !std::is_void_v<V>;
  using VT = std::conditional_t<pairs, V, char>;
  rs::Spec spec;
  spec.key_type = key;
  spec.value_type = value;
  if (argsort) spec.values_in = cccl_cache::algos::Iterator::counting();
  const auto t0 = std::chrono::steady_clock::now();
  auto built = rs::build(spec, cc);
  if (!built) bench::die(built.error().describe());
  auto exe = rs::bind(*built, 0);
  if (!exe) bench::die(exe.error().describe());
  std::printf("%s: built and bound in %.0f ms (%s), %s\n", label,
              bench::ns_since(t0) / 1e6, rs::summary(spec).c_str(),
              built->policy.onesweep ? "onesweep" : "multi-pass");
  bench::EventTimer t;
  std::uint64_t seed = 42;
  for (int lg = min_log; lg <= max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    const std::vector<K> keys = bench::random_keys<K>(n, seed);
    std::vector<VT> vals(pairs ? n : 0);
    for (std::uint64_t i = 0; i < vals.size(); ++i) vals[i] = static_cast<VT>(i);
    const int bits = int(sizeof(K) * 8);
    std::size_t ours_temp = exe->temp_storage_bytes(n), cub_temp = 0;
    check_rt(cub_sort<K, V>(nullptr, cub_temp, nullptr, nullptr, nullptr, nullptr, int(n), stream),
             "cub query");
    const std::size_t fill_bytes = argsort ? round_up_256(n * sizeof(VT)) : 0;  // CUB's argsort
    K *in, *out[2];
    VT *vin = nullptr, *vout[2] = {nullptr, nullptr};
    void* temp;
    check_rt(cudaMalloc(&in, n * sizeof(K)), "malloc");
    for (auto& o : out) check_rt(cudaMalloc(&o, n * sizeof(K)), "malloc");
    if (pairs && !argsort) {
      check_rt(cudaMalloc(&vin, n * sizeof(VT)), "malloc");
      check_rt(cudaMemcpy(vin, vals.data(), n * sizeof(VT), cudaMemcpyHostToDevice), "copy");
    }
    if (pairs)
      for (auto& o : vout) check_rt(cudaMalloc(&o, n * sizeof(VT)), "malloc");
    check_rt(cudaMalloc(&temp, std::max(ours_temp, fill_bytes + cub_temp)), "malloc");
    check_rt(cudaMemcpy(in, keys.data(), n * sizeof(K), cudaMemcpyHostToDevice), "copy");
    std::vector<double> times[2];
    const int reps = bench::reps_for(n);
    for (int r = 0; r < reps + 2; ++r) {  // two warm-up reps
      for (int slot = 0; slot < 2; ++slot) {
        const int who = (slot + r) % 2;  // 0 ours, 1 CUB; the order alternates every rep
        t.start(stream);
        if (who == 0) {
          std::size_t bytes = ours_temp;
          if (argsort)
            bench::check_cu((*exe)(temp, bytes, in, out[0],
                                   cccl_cache::algos::IteratorValue::counting(VT{0}), vout[0], n, 0,
                                   bits, stream),
                            "ours argsort");
          else
            bench::check_cu((*exe)(temp, bytes, in, out[0], vin, vout[0], n, 0, bits, stream),
                            "ours sort");
        } else {
          std::size_t bytes = cub_temp;
          const VT* values_in = reinterpret_cast<const VT*>(vin);
          if (argsort) {
            VT* fill = static_cast<VT*>(temp);
            check_rt(cub::DeviceFor::Bulk(VT(n), Iota<VT>{fill}, stream), "cub fill");
            values_in = fill;
          }
          check_rt(cub_sort<K, V>(static_cast<char*>(temp) + fill_bytes, bytes, in, out[1],
                                  (const V*)values_in, (V*)vout[1], int(n), stream),
                   "cub sort");
        }
        const float ms = t.stop(stream);
        if (r >= 2) times[who].push_back(ms);
      }
    }
    std::vector<K> k0(n), k1(n);
    std::vector<VT> v0(vals.size()), v1(vals.size());
    check_rt(cudaMemcpy(k0.data(), out[0], n * sizeof(K), cudaMemcpyDeviceToHost), "d2h");
    check_rt(cudaMemcpy(k1.data(), out[1], n * sizeof(K), cudaMemcpyDeviceToHost), "d2h");
    if (pairs) {
      check_rt(cudaMemcpy(v0.data(), vout[0], n * sizeof(VT), cudaMemcpyDeviceToHost), "d2h");
      check_rt(cudaMemcpy(v1.data(), vout[1], n * sizeof(VT), cudaMemcpyDeviceToHost), "d2h");
    }
    const bool ok = std::memcmp(k0.data(), k1.data(), n * sizeof(K)) == 0 && v0 == v1;
    const double o = bench::median(times[0]), c = bench::median(times[1]);
    std::printf("RESULT type=%s n=%llu ours_ms=%.5f cub_ms=%.5f ratio=%.4f check=%d "
                "temp_equal=%d reps=%d\n",
                label, (unsigned long long)n, o, c, o / c, ok ? 1 : 0,
                ours_temp == fill_bytes + cub_temp ? 1 : 0, reps);
    std::fflush(stdout);
    cudaFree(in);
    for (auto* p : out) cudaFree(p);
    cudaFree(vin);
    for (auto* p : vout) cudaFree(p);
    cudaFree(temp);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int max_log = argc > 1 ? std::atoi(argv[1]) : 28;
  const int min_log = argc > 2 ? std::atoi(argv[2]) : 10;
  const std::uint32_t cc = bench::runtime_gpu();  // the primary context, current: ours binds to it
  const char* dist = std::getenv("CCCL_CACHE_BENCH_KEYS");
  std::printf("float keys: %s\n", dist != nullptr && std::string(dist) == "unit"
                                      ? "uniform in [0, 1) (CCCL_CACHE_BENCH_KEYS=unit)"
                                      : "uniform in [-1e6, 1e6)");
  cudaStream_t stream;
  check_rt(cudaStreamCreate(&stream), "stream");
  run_type<float, void>("float32", ScalarType::float32, ScalarType::none, cc, min_log, max_log,
                        stream);
  run_type<std::int64_t, void>("int64", ScalarType::int64, ScalarType::none, cc, min_log,
                               max_log, stream);
  run_type<std::uint32_t, std::uint32_t>("uint32_uint32", ScalarType::uint32, ScalarType::uint32,
                                         cc, min_log, max_log, stream);
  run_type<float, std::int32_t>("argsort_float32_int32", ScalarType::float32, ScalarType::int32,
                                cc, min_log, max_log, stream, /*argsort=*/true);
  cudaStreamDestroy(stream);
  return 0;
}
