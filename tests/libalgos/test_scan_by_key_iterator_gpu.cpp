// scan_by_key over iterators on a GPU (skips without one): each item's rank in its run
// (constant values), runs of i / 2 over counting keys with counting values, gathered float
// values over keys read last first scanned exclusively into a negating float64 output, a
// scan into a reverse output, and one run under a constant key; against a host scan by
// key on sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26, fresh (build -> bind) and
// store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"
#include "scan_by_key_iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

std::vector<scan_by_key::Spec> specs() { return test_support::scan_by_key_iterator_specs(); }

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-scan-by-key-iterator", specs());
  return b;
}

// The scan by key of `values` under `keys` (runs of equal adjacent keys) with plus in A:
// inclusive, or exclusive from `init`. Integer sums wrap as the device's do.
template <class A, class K, class V>
std::vector<A> host_scan_by_key(const std::vector<K>& keys, const std::vector<V>& values,
                                bool exclusive, A init = A{}) {
  std::vector<A> out(keys.size());
  A acc{};
  auto add = [](A a, A b) -> A {
    if constexpr (std::is_integral_v<A>)
      return static_cast<A>(static_cast<std::make_unsigned_t<A>>(a) +
                            static_cast<std::make_unsigned_t<A>>(b));
    else
      return a + b;
  };
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const bool starts = i == 0 || !(keys[i] == keys[i - 1]);
    if (exclusive) {
      acc = starts ? init : acc;
      out[i] = acc;
      acc = add(acc, static_cast<A>(values[i]));
    } else {
      acc = starts ? static_cast<A>(values[i]) : add(acc, static_cast<A>(values[i]));
      out[i] = acc;
    }
  }
  return out;
}

// For spec `index`, every count: call(exe, temp, bytes, out, n, keep, stream) by the fresh
// and the loaded executable, each into its own zeroed array of n Out, agree bitwise with
// each other and with want(n).
template <class Out, class Call, class Want>
void run_scan(std::size_t index, Call call, Want want) {
  SKIP_WITHOUT_GPU();
  auto per_count = [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep,
                       CUstream stream) {
    std::vector<Out> got[2];
    int r = 0;
    for (const auto* exe : {&fresh, &loaded}) {
      const auto out = zeroed<Out>(n);
      query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) -> CUresult {
        return call(*exe, temp, bytes, out->get(), n, keep, stream);
      });
      got[r++] = copy_to_host<Out>(*out, n);
    }
    EXPECT_TRUE(same_bytes(got[0], got[1])) << "fresh and loaded differ";
    const auto [wrong, first] = mismatches(got[0], want(n));
    EXPECT_EQ(wrong, 0u) << "first at " << first;
  };
  for_each_count(built(), index, kGpuCounts, per_count);
}

TEST(ScanByKeyIteratorGpu, EachItemsRankInItsRunFromConstantValues) {
  std::vector<std::int32_t> keys;
  run_scan<std::int32_t>(
      0,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, std::uint64_t n,
          auto& keep, CUstream s) {
        keys = random_values<std::int32_t>(n, 0, 2, static_cast<std::uint32_t>(n) + 1);
        return exe(temp, bytes, on_device(keys, keep), IteratorValue::constant(std::int32_t{1}),
                   out, n, nullptr, s);
      },
      [&](std::uint64_t n) {
        return host_scan_by_key<std::int32_t>(keys, std::vector<std::int32_t>(n, 1), false);
      });
}

TEST(ScanByKeyIteratorGpu, PairsOfCountingKeysWithCountingValues) {
  run_scan<std::int64_t>(
      1,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, std::uint64_t n, auto&,
          CUstream s) {
        return exe(temp, bytes, IteratorValue::of(IteratorKind::transform, std::int64_t{0}),
                   IteratorValue::counting(std::int64_t{5}), out, n, nullptr, s);
      },
      [&](std::uint64_t n) {
        std::vector<std::int64_t> keys(n), values(n);
        for (std::uint64_t i = 0; i < n; ++i) {
          keys[i] = static_cast<std::int64_t>(i / 2);
          values[i] = static_cast<std::int64_t>(i) + 5;
        }
        return host_scan_by_key<std::int64_t>(keys, values, false);
      });
}

TEST(ScanByKeyIteratorGpu, GatheredValuesOverReversedKeysExclusiveIntoANegatingOutput) {
  const auto table = random_values<float>(4097, -100, 100, 7);
  std::vector<std::int32_t> keys, idx;
  const float init = 0.5f;
  run_scan<double>(
      2,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, std::uint64_t n,
          auto& keep, CUstream s) {
        keys = random_values<std::int32_t>(n, 0, 3, static_cast<std::uint32_t>(n) + 2);
        idx = random_values<std::int32_t>(n, 0, 4096, static_cast<std::uint32_t>(n) + 3);
        return exe(temp, bytes, IteratorValue::reverse(on_device(keys, keep)),
                   IteratorValue::permutation(on_device(table, keep), on_device(idx, keep)),
                   IteratorValue::transform(out), n, &init, s);
      },
      [&](std::uint64_t n) {
        const std::vector<std::int32_t> read(keys.rbegin(), keys.rend());
        std::vector<float> gathered(n);
        for (std::uint64_t i = 0; i < n; ++i) gathered[i] = table[idx[i]];
        // Integer-valued floats in short runs: every partial sum is exact in any order.
        const std::vector<float> scan = host_scan_by_key<float>(read, gathered, true, init);
        std::vector<double> want(n);
        for (std::uint64_t i = 0; i < n; ++i) want[i] = static_cast<double>(-scan[i]);
        return want;
      });
}

TEST(ScanByKeyIteratorGpu, AScanWrittenLastFirst) {
  std::vector<std::int32_t> keys;
  std::vector<std::int64_t> values;
  run_scan<std::int64_t>(
      3,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, std::uint64_t n,
          auto& keep, CUstream s) {
        keys = random_values<std::int32_t>(n, 0, 1, static_cast<std::uint32_t>(n) + 4);
        values = random_values<std::int64_t>(n, -1000, 1000, static_cast<std::uint32_t>(n) + 5);
        return exe(temp, bytes, on_device(keys, keep), on_device(values, keep),
                   IteratorValue::reverse(out), n, nullptr, s);
      },
      [&](std::uint64_t) {
        const std::vector<std::int64_t> scan = host_scan_by_key<std::int64_t>(keys, values, false);
        return std::vector<std::int64_t>(scan.rbegin(), scan.rend());
      });
}

TEST(ScanByKeyIteratorGpu, AConstantKeyIsOneRun) {
  std::vector<std::int32_t> values;
  run_scan<std::int32_t>(
      4,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, std::uint64_t n,
          auto& keep, CUstream s) {
        values = random_values<std::int32_t>(n, -9, 9, static_cast<std::uint32_t>(n) + 6);
        return exe(temp, bytes, IteratorValue::constant(std::int32_t{42}), on_device(values, keep),
                   out, n, nullptr, s);
      },
      [&](std::uint64_t n) {
        return host_scan_by_key<std::int32_t>(std::vector<std::int32_t>(n, 42), values, false);
      });
}

TEST(ScanByKeyIteratorGpu, AnArrayWhereTheSpecHasAnIteratorIsRefused) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const auto& fresh, const auto&, CUstream s) {
    if (i != 0) return;
    DeviceBuffer buf(4096);
    std::size_t bytes = 4096;
    EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), buf.get(), 100, nullptr, s),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
