// What the <algorithm>_vs_cub benchmarks share: their arguments, the device, a store and
// an AlgorithmCache over it, a stream, and the executables they time, kept alive.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"

namespace bench {

// One run of a vs-CUB benchmark, "<program> [max_log [min_log]]" (default 28 and 10):
// device 0's primary context current (also for the runtime, where CUB runs), a store in
// bench_dir(name)/store, a cache over it and a stream. Exits when there is no GPU.
class VsCub {
 public:
  VsCub(int argc, char** argv, const char* name)
      : max_log(argc > 1 ? std::atoi(argv[1]) : 28),
        min_log(argc > 2 ? std::atoi(argv[2]) : 10),
        cc(device_cc()),
        cache(open_store(bench_dir(name) / "store")) {
    check_rt(cudaStreamCreate(&stream), "stream");
  }
  ~VsCub() { cudaStreamDestroy(stream); }
  VsCub(const VsCub&) = delete;
  VsCub& operator=(const VsCub&) = delete;

  // Timed repetitions for n items: 200 up to 2^20, 50 up to 2^24, 15 above.
  static int reps(std::uint64_t n) { return reps_for(n, 200, 50, 15); }

  // Prints the method line: CUDA events around each call (`in_place`: what stays in
  // place), the host time of issuing it; `contenders` (CUB's built by nvcc for sm_90
  // with the same CCCL) `order` every rep; medians of reps() after rotating_times' two
  // warm-up reps; `types`; the device's sm.
  void print_method(const char* in_place, const char* contenders, const char* order,
                    const char* types) const {
    std::printf(
        "Method: CUDA events around each call (%s in place), host time of issuing it; %s "
        "(nvcc sm_90, same CCCL) %s every rep; medians of reps (200 up to 2^20, 50 up to 2^24, "
        "15 above) after 2 warm-up reps; %s; sm_%d\n",
        in_place, contenders, order, types, cc);
  }

  // The executable of `spec` on device 0 (a store hit, or built), alive as long as this
  // run; exits with the error where there is none.
  template <class Spec>
  const cccl_cache::algos::ExecutableOf<Spec>& acquire(const Spec& spec) {
    auto exe = cache.acquire(spec, 0);
    if (!exe) die(exe.error().describe());
    keep_.push_back(*exe);
    return **exe;
  }

  const int max_log, min_log;
  const int cc;  // device 0's, e.g. 90
  cccl_cache::algos::AlgorithmCache cache;
  cudaStream_t stream = nullptr;

 private:
  static int device_cc() {
    int cc = 0;
    gpu_context(&cc);
    check_rt(cudaSetDevice(0), "cudaSetDevice");
    return cc;
  }
  std::vector<std::shared_ptr<const void>> keep_;
};

// A device copy of `v` (cudaMalloc'd: the caller frees it); exits on an error.
template <class T>
T* device_copy(const std::vector<T>& v) {
  T* p = nullptr;
  check_rt(cudaMalloc(&p, v.size() * sizeof(T)), "malloc");
  check_rt(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "copy");
  return p;
}

// Codegen A/B: our build result of `spec` for sm_`cc` with its cubin replaced by the
// file's (the same kernels compiled another way: same names, so the same policy, bind
// and dispatch), bound to device 0. Exits with the error where there is none.
template <class Spec>
cccl_cache::algos::ExecutableOf<Spec> with_cubin(const Spec& spec, int cc, const std::string& path) {
  auto result = cccl_cache::algos::build(spec, static_cast<std::uint32_t>(cc));
  if (!result) die(result.error().describe());
  const std::vector<char> bytes = read_file(path);
  if (bytes.empty()) die("cannot read " + path);
  std::printf("codegen A/B %s: %zu bytes (ours %zu)\n", path.c_str(), bytes.size(),
              result->record.cubin.size());
  result->record.cubin.resize(bytes.size());
  std::memcpy(result->record.cubin.data(), bytes.data(), bytes.size());
  auto exe = cccl_cache::algos::bind(*result, 0);
  if (!exe) die(exe.error().describe());
  return std::move(*exe);
}

}  // namespace bench
