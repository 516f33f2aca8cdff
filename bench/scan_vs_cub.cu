// Scan time of our bound inclusive/exclusive scans against CUB's own
// cub::DeviceScan::InclusiveScan / InclusiveSum / ExclusiveScan compiled by nvcc with the
// same pinned CCCL, side by side in one run: float32, int64, int32, int8 and int16 with plus,
// 2^10 .. 2^max items (default 28). CUB is called with a std::uint64_t count, so it
// scans with uint64 offsets (detail::choose_offset_t), as ours does by default.
// Method: out of place (d_in -> d_out); CUDA events around each call only; the
// contenders alternate within every repetition (the order rotates); median over reps
// after 2 warm-up reps. Check: our output bitwise equal to CUB's (inputs keep float
// sums exact in any order, so CUB's decoupled look-back cannot round differently) and
// equal temp-storage sizes.
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/scan/executable.hpp"
#include "bench_util.hpp"
#include "vs_cub.hpp"

namespace ca = cccl_cache::algos;
using ca::AlgorithmId;
using ca::ScalarType;

namespace {

using bench::check_rt;

// A contender: a call on (temp, temp_bytes, in, out, n, stream) returning 0 on success.
struct Contender {
  std::string name;
  std::function<int(void*, std::size_t&, const void*, void*, std::uint64_t, cudaStream_t)> call;
};

template <class T>
std::vector<T> make_input(std::uint64_t n, std::uint64_t& seed) {
  std::vector<T> v(n);
  int w = 0;  // floats: differences of a walk in [-64, 64]: every partial sum is exact
  for (auto& x : v) {
    const std::uint64_t r = bench::splitmix(seed);
    if constexpr (std::is_floating_point_v<T>) {
      const int next = std::min(64, std::max(-64, w + static_cast<int>(r % 17) - 8));
      x = static_cast<T>(next - w);
      w = next;
    } else {
      x = static_cast<T>(r);
    }
  }
  return v;
}

template <class T>
void run(const char* label, const std::vector<Contender>& cs, int min_log, int max_log,
         cudaStream_t stream) {
  std::printf("%s: n, then per contender median ms and ratio to %s\n", label, cs[1].name.c_str());
  bench::EventTimer t;
  std::uint64_t seed = 42;
  for (int lg = min_log; lg <= max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    const auto in = make_input<T>(n, seed);
    std::vector<std::size_t> temp(cs.size());
    std::size_t most = 1;
    for (std::size_t i = 0; i < cs.size(); ++i) {
      if (cs[i].call(nullptr, temp[i], nullptr, nullptr, n, stream) != 0) bench::die(cs[i].name + " query");
      most = std::max(most, temp[i]);
    }
    void *d_in, *d_out, *d_temp;
    check_rt(cudaMalloc(&d_in, n * sizeof(T)), "malloc");
    check_rt(cudaMalloc(&d_out, n * sizeof(T)), "malloc");
    check_rt(cudaMalloc(&d_temp, most), "malloc");
    check_rt(cudaMemcpy(d_in, in.data(), n * sizeof(T), cudaMemcpyHostToDevice), "copy");
    std::vector<std::vector<double>> times(cs.size());
    std::vector<std::vector<T>> outs(cs.size(), std::vector<T>(n));
    const int reps = bench::reps_for(n);
    for (int r = 0; r < reps + 2; ++r)
      for (std::size_t slot = 0; slot < cs.size(); ++slot) {
        const std::size_t who = (slot + static_cast<std::size_t>(r)) % cs.size();
        std::size_t bytes = temp[who];
        t.start(stream);
        if (cs[who].call(d_temp, bytes, d_in, d_out, n, stream) != 0) bench::die(cs[who].name + " scan");
        const float ms = t.stop(stream);
        if (r >= 2) times[who].push_back(ms);
        if (r == reps + 1)
          check_rt(cudaMemcpy(outs[who].data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost), "d2h");
      }
    const double base = bench::median(times[1]);
    std::printf("RESULT %s n=%llu", label, static_cast<unsigned long long>(n));
    for (std::size_t i = 0; i < cs.size(); ++i)
      std::printf(" %s_ms=%.5f %s_ratio=%.4f", cs[i].name.c_str(), bench::median(times[i]),
                  cs[i].name.c_str(), bench::median(times[i]) / base);
    const bool same = std::memcmp(outs[0].data(), outs[1].data(), n * sizeof(T)) == 0;
    std::printf(" check=%d temp_equal=%d reps=%d\n", same ? 1 : 0, temp[0] == temp[1] ? 1 : 0, reps);
    std::fflush(stdout);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_temp);
  }
}

template <class T>
void run_type(const char* type_name, ScalarType type, ca::AlgorithmCache& cache, int min_log,
              int max_log, cudaStream_t stream) {
  auto inc = cache.acquire(ca::scan::InclusiveSpec{type, ca::Operator::plus(), ScalarType::uint64}, 0);
  auto exc = cache.acquire(ca::scan::ExclusiveSpec{type, ca::Operator::plus(), ScalarType::uint64}, 0);
  if (!inc) bench::die(inc.error().describe());
  if (!exc) bench::die(exc.error().describe());
  std::shared_ptr<const ca::scan::InclusiveExecutable> ie = *inc;
  std::shared_ptr<const ca::scan::ExclusiveExecutable> ee = *exc;
  using Ptr = const T*;
  const std::vector<Contender> inclusive = {
      {"ours", [ie](void* t, std::size_t& b, const void* i, void* o, std::uint64_t n, cudaStream_t s) {
         return static_cast<int>((*ie)(t, b, i, o, n, s));
       }},
      {"cub_inclusive_scan", [](void* t, std::size_t& b, const void* i, void* o, std::uint64_t n, cudaStream_t s) {
         return static_cast<int>(cub::DeviceScan::InclusiveScan(t, b, static_cast<Ptr>(i), static_cast<T*>(o),
                                                                ::cuda::std::plus<>{}, n, s));
       }},
      {"cub_inclusive_sum", [](void* t, std::size_t& b, const void* i, void* o, std::uint64_t n, cudaStream_t s) {
         return static_cast<int>(cub::DeviceScan::InclusiveSum(t, b, static_cast<Ptr>(i), static_cast<T*>(o), n, s));
       }}};
  const std::vector<Contender> exclusive = {
      {"ours", [ee](void* t, std::size_t& b, const void* i, void* o, std::uint64_t n, cudaStream_t s) {
         const T init{};
         return static_cast<int>((*ee)(t, b, i, o, n, &init, s));
       }},
      {"cub_exclusive_scan", [](void* t, std::size_t& b, const void* i, void* o, std::uint64_t n, cudaStream_t s) {
         return static_cast<int>(cub::DeviceScan::ExclusiveScan(t, b, static_cast<Ptr>(i), static_cast<T*>(o),
                                                                ::cuda::std::plus<>{}, T{}, n, s));
       }}};
  run<T>((std::string("inclusive_") + type_name).c_str(), inclusive, min_log, max_log, stream);
  run<T>((std::string("exclusive_") + type_name).c_str(), exclusive, min_log, max_log, stream);
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub run(argc, argv, "scan");
  std::printf("Method: out-of-place scan time with CUDA events around the call only; contenders "
              "alternate each rep (rotating order); median of reps (100 up to 2^20, 30 up to 2^24, "
              "11 above) after 2 warm-up reps; plus; offsets uint64 (CUB given a uint64 count); "
              "CUB: nvcc sm_90, CCCL %d; sm_%d\n", CCCL_VERSION, run.cc);
  run_type<float>("float32", ScalarType::float32, run.cache, run.min_log, run.max_log, run.stream);
  run_type<std::int64_t>("int64", ScalarType::int64, run.cache, run.min_log, run.max_log, run.stream);
  run_type<std::int32_t>("int32", ScalarType::int32, run.cache, run.min_log, run.max_log, run.stream);
  // Narrow types: CUB accumulates their sums in int (its __accumulator_t), as ours does.
  run_type<std::int8_t>("int8", ScalarType::int8, run.cache, run.min_log, run.max_log, run.stream);
  run_type<std::int16_t>("int16", ScalarType::int16, run.cache, run.min_log, run.max_log, run.stream);
  return 0;
}
