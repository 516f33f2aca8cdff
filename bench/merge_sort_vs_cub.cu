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
// Codegen A/B (--nvcc-ptx KEYS.ptx PAIRS.ptx, made at build time by the target
// bench_merge_sort_codegen_ab_ptx): a third contender, the same kernels compiled by
// nvcc to PTX from the very source NVRTC gets, then pruned, assembled (nvJitLink)
// and bound exactly like ours: isolates NVRTC's code generation from our dispatch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fstream>
#include <optional>
#include <sstream>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/merge_sort/build.hpp"
#include "merge_sort_bench_util.hpp"
#include "nvrtc_compile.hpp"
#include "ptx_prune.hpp"
#include "merge_sort_cub_ref.hpp"

namespace ms = cccl_cache::algos::merge_sort;
using cccl_cache::algos::ScalarType;

namespace {

void check_rt(cudaError_t e, const char* what) {
  if (e != cudaSuccess) bench::die(std::string(what) + ": " + cudaGetErrorString(e));
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int reps_for(std::uint64_t n) { return n <= (1u << 20) ? 100 : n <= (1u << 24) ? 30 : 11; }

struct Timer {
  cudaEvent_t a{}, b{};
  Timer() {
    check_rt(cudaEventCreate(&a), "event");
    check_rt(cudaEventCreate(&b), "event");
  }
  ~Timer() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
};

// One type: K keys, V values (void: keys only).
template <class K, class V>
void run_type(const char* label, const char* prefix, const ms::Executable& exe,
              const ms::Executable* nvcc_exe, int min_log, int max_log, cudaStream_t stream) {
  constexpr bool pairs = !std::is_void_v<V>;
  constexpr std::size_t vsize = pairs ? sizeof(std::conditional_t<pairs, V, char>) : 0;
  std::printf("%s: n, ours ms (median), CUB ms (median), ours/CUB, check\n", label);
  Timer t;
  std::uint64_t seed = 42;
  for (int lg = min_log; lg <= max_log; ++lg) {
    const std::uint64_t n = 1ull << lg;
    std::vector<K> keys(n);
    for (auto& k : keys) {
      const std::uint64_t r = splitmix(seed);
      if constexpr (std::is_floating_point_v<K>)
        k = static_cast<K>(static_cast<double>(r >> 11) * 0x1.0p-53 * 2e6 - 1e6);
      else
        k = static_cast<K>(r);
    }
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
    std::vector<double> ours_ms, cub_ms, nvcc_ms;
    std::vector<K> ours_out(n), cub_out(n), nvcc_out(n);
    std::vector<std::uint32_t> ours_vals(pairs ? n : 0), cub_vals(pairs ? n : 0),
        nvcc_vals(pairs ? n : 0);
    const int reps = reps_for(n);
    const int contenders = nvcc_exe ? 3 : 2;  // 0 ours, 1 CUB, 2 ours with nvcc's PTX
    for (int r = 0; r < reps + 2; ++r) {  // two warm-up reps
      for (int slot = 0; slot < contenders; ++slot) {
        const int who = (slot + r) % contenders;  // the order rotates every rep
        const bool ours = who != 1;
        const ms::Executable& e = who == 2 ? *nvcc_exe : exe;
        check_rt(cudaMemcpyAsync(work_k, src_k, n * sizeof(K), cudaMemcpyDeviceToDevice, stream),
                 "d2d");
        if (pairs)
          check_rt(cudaMemcpyAsync(work_v, src_v, n * vsize, cudaMemcpyDeviceToDevice, stream),
                   "d2d");
        check_rt(cudaEventRecord(t.a, stream), "record");
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
        check_rt(cudaEventRecord(t.b, stream), "record");
        check_rt(cudaEventSynchronize(t.b), "sync");
        float ms = 0;
        check_rt(cudaEventElapsedTime(&ms, t.a, t.b), "elapsed");
        if (r >= 2) (who == 0 ? ours_ms : who == 1 ? cub_ms : nvcc_ms).push_back(ms);
        if (r == reps + 1) {
          check_rt(cudaMemcpy((who == 0 ? ours_out : who == 1 ? cub_out : nvcc_out).data(), work_k,
                              n * sizeof(K), cudaMemcpyDeviceToHost),
                   "d2h");
          if (pairs)
            check_rt(cudaMemcpy((who == 0 ? ours_vals : who == 1 ? cub_vals : nvcc_vals).data(),
                                work_v, n * vsize, cudaMemcpyDeviceToHost),
                     "d2h");
        }
      }
    }
    bool ok = std::memcmp(ours_out.data(), cub_out.data(), n * sizeof(K)) == 0 &&
              ours_vals == cub_vals && std::is_sorted(ours_out.begin(), ours_out.end());
    if (ok && lg <= 22) {
      std::sort(keys.begin(), keys.end());
      ok = std::memcmp(keys.data(), ours_out.data(), n * sizeof(K)) == 0;
    }
    const double o = bench::median(ours_ms), c = bench::median(cub_ms);
    std::printf(
        "RESULT %sn=%llu %sours_ms=%.5f %scub_ms=%.5f %sratio=%.4f %scheck=%d %stemp_equal=%d "
        "reps=%d\n",
        prefix, (unsigned long long)n, prefix, o, prefix, c, prefix, o / c, prefix, ok ? 1 : 0,
        prefix, ours_temp == cub_temp ? 1 : 0, reps);
    if (nvcc_exe) {
      const bool same = std::memcmp(nvcc_out.data(), cub_out.data(), n * sizeof(K)) == 0 &&
                        nvcc_vals == cub_vals;
      const double v = bench::median(nvcc_ms);
      std::printf("RESULT %sn=%llu %snvccptx_ms=%.5f %snvccptx_ratio=%.4f %snvccptx_check=%d\n",
                  prefix, (unsigned long long)n, prefix, v, prefix, v / c, prefix, same ? 1 : 0);
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

// Ours, with the cubin replaced by nvcc's PTX of the same source, pruned and assembled
// exactly as ms::build does with NVRTC's: same kernel names, same policy, same bind.
ms::Executable from_nvcc_ptx(const ms::Spec& spec, int cc, const char* ptx_path) {
  auto result = ms::build(spec, static_cast<std::uint32_t>(cc));
  if (!result) bench::die(result.error().describe());
  std::ifstream in(ptx_path);
  if (!in) bench::die(std::string("cannot read ") + ptx_path);
  std::stringstream text;
  text << in.rdbuf();
  auto pruned = cccl_cache::algos::detail::prune_ptx(
      text.str(), {result->block_sort_kernel, result->partition_kernel, result->merge_kernel});
  if (!pruned) bench::die("prune: " + pruned.error().message);
  auto cubin = cccl_cache::algos::detail::assemble_ptx(pruned->ptx, static_cast<std::uint32_t>(cc));
  if (!cubin) bench::die(cubin.error().describe());
  std::printf("codegen A/B %s: NVRTC cubin %zu bytes, nvcc-PTX cubin %zu bytes\n", ptx_path,
              result->cubin.size(), cubin->size());
  result->cubin = std::move(*cubin);
  auto exe = ms::bind(*result, 0);
  if (!exe) bench::die(exe.error().describe());
  return std::move(*exe);
}

int main(int argc, char** argv) {
  const int max_log = argc > 1 ? std::atoi(argv[1]) : 28;
  const char* keys_ptx = nullptr;
  const char* pairs_ptx = nullptr;
  if (argc > 4 && std::string(argv[2]) == "--nvcc-ptx") {
    keys_ptx = argv[3];
    pairs_ptx = argv[4];
  }
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
  auto keys_exe = cache.merge_sort(keys_spec, 0);
  auto pairs_exe = cache.merge_sort(pairs_spec, 0);
  auto signed_exe = cache.merge_sort(pairs_signed, 0);
  if (!keys_exe) bench::die(keys_exe.error().describe());
  if (!pairs_exe) bench::die(pairs_exe.error().describe());
  if (!signed_exe) bench::die(signed_exe.error().describe());
  std::optional<ms::Executable> keys_nvcc, pairs_nvcc;
  if (keys_ptx) keys_nvcc.emplace(from_nvcc_ptx(keys_spec, cc, keys_ptx));
  if (pairs_ptx) pairs_nvcc.emplace(from_nvcc_ptx(pairs_spec, cc, pairs_ptx));
  cudaStream_t stream;
  check_rt(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  std::printf(
      "Method: sort time with CUDA events around the sort only; the unsorted input is re-copied "
      "(D2D) "
      "before every sort, outside the events; ours and CUB (nvcc sm_90, cub::DeviceMergeSort) "
      "alternate "
      "each rep; median of reps (100 up to 2^20, 30 up to 2^24, 11 above) after 2 warm-up reps; "
      "offsets uint64 as CUB picks for an int64 count; sm_%d\n",
      cc);
  run_type<float, void>("float32 keys", "", **keys_exe, keys_nvcc ? &*keys_nvcc : nullptr, min_log, max_log, stream);
  run_type<std::int64_t, std::uint32_t>("int64 keys + uint32 values", "pairs_", **pairs_exe,
                                        pairs_nvcc ? &*pairs_nvcc : nullptr, min_log, max_log, stream);
  run_type<std::int64_t, std::uint32_t>("int64 keys + uint32 values, ours with int64 offsets",
                                        "pairs_i64off_", **signed_exe, nullptr, min_log, max_log, stream);
  cudaStreamDestroy(stream);
  return 0;
}
