// A temp-storage query's own cost, CPU side (no GPU): radix sort's and the scans' answer in
// closed form (what a bound executable's query runs after its argument checks) against the
// same question put through CCCL 3.5's whole host dispatch (the route before the closed
// form), for float32 and int64 over CUB's sm_90 policies, 2,048 items (as
// bench_algorithms_acquire asks) and 2^24. The executables' query P50 on a device comes
// from bench_algorithms_acquire.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "radix_sort/dispatch.hpp"
#include "scan/dispatch.hpp"

namespace {

using namespace cccl_cache::algos;
namespace rs = cccl_cache::algos::radix_sort;
namespace sc = cccl_cache::algos::scan;

detail::LaunchContext sm90(const rs::Policy& p) {
  detail::LaunchContext c;
  c.device = 0;
  c.ptx_version = 900;
  c.sm_count = 132;
  c.num_kernels = rs::kSlots;
  const auto threads = rs::detail::launch_threads(p);
  for (std::size_t i = 0; i < rs::kSlots; ++i)
    c.kernels[i] = {reinterpret_cast<CUfunction>(0x100 + i), int(threads[i]), 2, 0};
  return c;
}

// args: key size (4: float32, 8: int64), item count; `cub`: through CUB's dispatch.
void radix_sort_query(benchmark::State& state, bool cub) {
  rs::Spec spec;
  spec.key_type = state.range(0) == 4 ? ScalarType::float32 : ScalarType::int64;
  const rs::Policy p = rs::detail::selected_policy(spec, 90);
  const auto ctx = sm90(p);
  const rs::detail::DispatchParams params{&ctx, p};
  const auto fn = rs::detail::select_dispatch(size_of(spec.key_type), 0, spec.offset_type, !cub);
  const auto n = static_cast<std::uint64_t>(state.range(1));
  const int bits = int(size_of(spec.key_type)) * 8;
  rs::DoubleBuffers none;
  for (auto _ : state) {
    std::size_t bytes = 0;
    benchmark::DoNotOptimize(fn(params, nullptr, bytes, none, n, 0, bits, false, nullptr));
    benchmark::DoNotOptimize(bytes);
  }
}
void BM_RadixSortQueryClosedForm(benchmark::State& s) { radix_sort_query(s, false); }
void BM_RadixSortQueryCubDispatch(benchmark::State& s) { radix_sort_query(s, true); }
BENCHMARK(BM_RadixSortQueryClosedForm)->ArgsProduct({{4, 8}, {2048, 1 << 24}});
BENCHMARK(BM_RadixSortQueryCubDispatch)->ArgsProduct({{4, 8}, {2048, 1 << 24}});

// args: element size, item count, exclusive; CUB's sm_90 look-back shape for 4-byte plus.
void scan_query(benchmark::State& state, bool cub) {
  detail::LaunchContext ctx;
  ctx.ptx_version = 900;
  ctx.sm_count = 132;
  sc::detail::DispatchParams p;
  p.launch = &ctx;
  p.policy.block_threads = 128;
  p.policy.items_per_thread = 24;
  const auto size = static_cast<std::size_t>(state.range(0));
  const bool exclusive = state.range(2) != 0;
  const auto fn = sc::detail::select_dispatch(size, size, ScalarType::uint64, exclusive, !cub);
  const auto n = static_cast<std::uint64_t>(state.range(1));
  for (auto _ : state) {
    std::size_t bytes = 0;
    benchmark::DoNotOptimize(fn(p, nullptr, bytes, nullptr, nullptr, n, nullptr, nullptr, nullptr));
    benchmark::DoNotOptimize(bytes);
  }
}
void BM_ScanQueryClosedForm(benchmark::State& s) { scan_query(s, false); }
void BM_ScanQueryCubDispatch(benchmark::State& s) { scan_query(s, true); }
BENCHMARK(BM_ScanQueryClosedForm)->ArgsProduct({{4, 8}, {2048, 1 << 24}, {0, 1}});
BENCHMARK(BM_ScanQueryCubDispatch)->ArgsProduct({{4, 8}, {2048, 1 << 24}, {0, 1}});

}  // namespace

BENCHMARK_MAIN();
