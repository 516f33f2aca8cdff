// Cost of a merge-sort cache key, warm (the store-hit path computes one per
// AlgorithmCache::merge_sort call that misses the in-process map): cache_key for a
// built-in and a custom comparator, and the part of it that re-generates and hashes our
// own source (codegen_digest). No GPU. The first key of a process (toolchain
// fingerprint) is timed by bench_store_first_hit.
#include <benchmark/benchmark.h>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "merge_sort/codegen.hpp"

namespace ms = cccl_cache::algos::merge_sort;

namespace {

ms::Spec custom_spec() {
  ms::Spec s;
  std::string src = "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }\n";
  while (src.size() < 1024) src += "// padding to a 1 KiB comparator source\n";
  s.comparator = cccl_cache::algos::Comparator::custom("abs_less", src);
  return s;
}

void BM_CacheKeyBuiltin(benchmark::State& state) {
  const ms::Spec s;
  benchmark::DoNotOptimize(ms::cache_key(s, 90));  // toolchain fingerprint, once
  for (auto _ : state) benchmark::DoNotOptimize(ms::cache_key(s, 90));
}
BENCHMARK(BM_CacheKeyBuiltin);

void BM_CacheKeyCustom1KiB(benchmark::State& state) {
  const ms::Spec s = custom_spec();
  benchmark::DoNotOptimize(ms::cache_key(s, 90));
  for (auto _ : state) benchmark::DoNotOptimize(ms::cache_key(s, 90));
}
BENCHMARK(BM_CacheKeyCustom1KiB);

void BM_CodegenDigest(benchmark::State& state) {
  const ms::Spec s;
  for (auto _ : state) benchmark::DoNotOptimize(cccl_cache::algos::MergeSort::codegen_digest(s));
}
BENCHMARK(BM_CodegenDigest);

}  // namespace

BENCHMARK_MAIN();
