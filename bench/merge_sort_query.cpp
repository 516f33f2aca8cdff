// Benchmark 1, the mission's measurement: temp-storage query overhead of a fresh
// and a store-loaded merge sort (float32 keys, 2,048 items) held by one process.
// Batches of queries only (no allocation, launch or sync), many trials, the two in
// alternating order; P5..P95 ns per query for each, the median paired difference,
// and for reference CUB's own host dispatch answering the same query (through our
// bound kernels, and nvcc-built cub::DeviceMergeSort).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "merge_sort/dispatch.hpp"
#include "bench_util.hpp"
#include "merge_sort_cub_ref.hpp"

namespace ms = cccl_cache::algos::merge_sort;

namespace {

volatile std::size_t g_sink = 0;

template <class F>
double ns_per_query(int batch, F&& query) {
  std::size_t acc = 0;
  const auto t0 = bench::Clock::now();
  for (int i = 0; i < batch; ++i) acc += query();
  const double ns = bench::ns_since(t0);
  g_sink = g_sink + acc;
  return ns / batch;
}

}  // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 101;
  const int batch = argc > 2 ? std::atoi(argv[2]) : 20000;
  const std::uint64_t n = 2048;
  int cc = 0;
  bench::gpu_context(&cc);
  auto store = bench::open_store(bench::bench_dir("query") / "store");

  ms::Spec spec;  // float32 keys, less, int64 offsets
  cccl_cache::algos::AlgorithmCache fresh_cache(store), loaded_cache(store);
  auto fresh = fresh_cache.acquire(spec, 0);
  if (!fresh) bench::die(fresh.error().describe());
  auto loaded = loaded_cache.acquire(spec, 0);
  if (!loaded) bench::die(loaded.error().describe());
  const auto fs = fresh_cache.stats(), ls = loaded_cache.stats();
  std::printf(
      "fresh executable: builds %llu store_hits %llu; loaded executable: builds %llu store_hits "
      "%llu\n",
      (unsigned long long)fs.builds, (unsigned long long)fs.store_hits,
      (unsigned long long)ls.builds, (unsigned long long)ls.store_hits);
  if (fs.builds != 1 || ls.builds != 0 || ls.store_hits != 1)
    bench::die("fresh/loaded not as intended");
  const ms::Executable& f = **fresh;
  const ms::Executable& l = **loaded;

  // CUB's DispatchMergeSort driven by the same policy (the path a call with temp storage takes).
  auto entry = store->peek(ms::cache_key(spec, static_cast<std::uint32_t>(cc)));
  if (!entry || !*entry) bench::die("entry missing from store");
  auto result = cccl_cache::algos::deserialize<cccl_cache::algos::MergeSort>((*entry)->payload);
  if (!result) bench::die(result.error().describe());
  namespace d = ms::detail;
  cccl_cache::algos::detail::LaunchContext context;
  context.ptx_version = cc * 10;
  d::DispatchParams params;
  params.launch = &context;
  params.policy = result->policy;
  const d::DispatchFn dispatch = d::select_dispatch(4, 0, spec.offset_type, /*closed_form=*/false);

  std::size_t bf = 0, bl = 0, bd = 0;
  f(nullptr, bf, nullptr, nullptr, nullptr, nullptr, n, nullptr);
  l(nullptr, bl, nullptr, nullptr, nullptr, nullptr, n, nullptr);
  dispatch(params, nullptr, bd, nullptr, nullptr, nullptr, nullptr, n, nullptr,
           cccl_cache::algos::detail::kNoOpState);
  const std::size_t bc = bench::cub_query_float_keys(static_cast<std::int64_t>(n));
  std::printf(
      "temp bytes for %llu float keys: fresh %zu, loaded %zu, CUB dispatch (bound) %zu, "
      "cub::DeviceMergeSort %zu\n",
      (unsigned long long)n, bf, bl, bd, bc);
  if (bf != bl || bf != bd || bf != bc) bench::die("temp-storage sizes differ");

  auto q_fresh = [&] {
    std::size_t b = 0;
    f(nullptr, b, nullptr, nullptr, nullptr, nullptr, n, nullptr);
    return b;
  };
  auto q_loaded = [&] {
    std::size_t b = 0;
    l(nullptr, b, nullptr, nullptr, nullptr, nullptr, n, nullptr);
    return b;
  };
  auto m_fresh = [&] { return f.temp_storage_bytes(n); };
  auto m_loaded = [&] { return l.temp_storage_bytes(n); };
  auto q_dispatch = [&] {
    std::size_t b = 0;
    dispatch(params, nullptr, b, nullptr, nullptr, nullptr, nullptr, n, nullptr,
             cccl_cache::algos::detail::kNoOpState);
    return b;
  };
  auto q_cub = [&] { return bench::cub_query_float_keys(static_cast<std::int64_t>(n)); };

  for (int w = 0; w < 3; ++w) {  // warm-up
    ns_per_query(batch, q_fresh);
    ns_per_query(batch, q_loaded);
    ns_per_query(batch, q_dispatch);
    ns_per_query(batch / 10, q_cub);
  }
  std::vector<double> tf, tl, diff, mf, ml, mdiff, td, tc;
  // One paired trial of fresh vs loaded, in alternating order.
  auto paired = [&](int t, const auto& fresh, const auto& loaded, std::vector<double>& vf,
                    std::vector<double>& vl, std::vector<double>& vd) {
    double a, b;
    if (t % 2 == 0) {
      a = ns_per_query(batch, fresh);
      b = ns_per_query(batch, loaded);
    } else {
      b = ns_per_query(batch, loaded);
      a = ns_per_query(batch, fresh);
    }
    vf.push_back(a);
    vl.push_back(b);
    vd.push_back(b - a);
  };
  for (int t = 0; t < trials; ++t) {
    paired(t, q_fresh, q_loaded, tf, tl, diff);
    paired(t, m_fresh, m_loaded, mf, ml, mdiff);
    td.push_back(ns_per_query(batch, q_dispatch));
    tc.push_back(ns_per_query(batch / 10, q_cub));
  }
  std::printf("query overhead, %llu float32 keys, %d trials x %d queries (ns/query):\n",
              (unsigned long long)n, trials, batch);
  bench::print_percentiles("fresh    exe(nullptr, bytes, ..., n)", tf, "ns");
  bench::print_percentiles("loaded   exe(nullptr, bytes, ..., n)", tl, "ns");
  bench::print_percentiles("loaded - fresh (paired)", diff, "ns");
  bench::print_percentiles("fresh    exe.temp_storage_bytes(n)", mf, "ns");
  bench::print_percentiles("loaded   exe.temp_storage_bytes(n)", ml, "ns");
  bench::print_percentiles("loaded - fresh (paired)", mdiff, "ns");
  bench::print_percentiles("ref: CUB DispatchMergeSort, bound kernels", td, "ns");
  bench::print_percentiles("ref: cub::DeviceMergeSort (nvcc)", tc, "ns");
  std::printf(
      "RESULT query_p50_fresh_ns=%.3f query_p50_loaded_ns=%.3f median_paired_diff_ns=%.3f "
      "ratio=%.4f\n",
      bench::median(tf), bench::median(tl), bench::median(diff),
      bench::median(tl) / bench::median(tf));
  return 0;
}
