// unique_by_key over iterators on a GPU (skips without one): each run's first position
// from a counting value input (the keys written, or discarded), runs of i / 2 over a
// counting input (a transform iterator) written last first, a reversed float key array
// with values gathered by a permutation and stored negated as float64 (a transform
// output), and a constant key; against host references on sizes 0, 1, 2, 1023, 1025,
// 2^20 + 3 and 2^26, fresh (build -> bind) and store-loaded executables bitwise
// identical, the number of runs with them.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"
#include "unique_by_key_iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

std::vector<unique_by_key::Spec> specs() { return test_support::unique_iterator_specs(); }

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-unique-by-key-iterator", specs());
  return b;
}

// What a call should leave: the key and value output arrays (n items each, zero where
// nothing is written) and the number of runs.
template <class KO, class VO>
struct Unique {
  std::vector<KO> keys;
  std::vector<VO> values;
  std::uint64_t count = 0;
};

// The runs of `keys` (as read, compared with ==): each run's first key and value, in
// order, into arrays of n zeros.
template <class KO, class VO, class K, class V>
Unique<KO, VO> first_of_runs(const std::vector<K>& keys, const std::vector<V>& values) {
  Unique<KO, VO> w{std::vector<KO>(keys.size()), std::vector<VO>(keys.size()), 0};
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (i == 0 || !(keys[i] == keys[i - 1])) {
      w.keys[w.count] = static_cast<KO>(keys[i]);
      w.values[w.count++] = static_cast<VO>(values[i]);
    }
  return w;
}

// For spec `index`, every count: call(exe, temp, bytes, keys_out, values_out, d_count, n,
// keep, stream) by the fresh and the loaded executable, each into its own zeroed arrays
// of n KO and n VO and count, agree bitwise with each other and with want(n).
template <class KO, class VO, class Call, class Want>
void run_unique(std::size_t index, Call call, Want want) {
  SKIP_WITHOUT_GPU();
  auto per_count = [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep,
                       CUstream stream) {
    Unique<KO, VO> got[2];
    int r = 0;
    for (const auto* exe : {&fresh, &loaded}) {
      const auto keys = zeroed<KO>(n);
      const auto values = zeroed<VO>(n);
      DeviceBuffer count(sizeof(std::uint64_t));
      ASSERT_EQ(cuMemsetD8(count.ptr, 0xff, sizeof(std::uint64_t)), CUDA_SUCCESS);
      query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) -> CUresult {
        return call(*exe, temp, bytes, keys->get(), values->get(), count.get(), n, keep, stream);
      });
      got[r].keys = copy_to_host<KO>(*keys, n);
      got[r].values = copy_to_host<VO>(*values, n);
      got[r++].count = copy_to_host<std::uint64_t>(count, 1)[0];
    }
    EXPECT_TRUE(same_bytes(got[0].keys, got[1].keys)) << "keys: fresh and loaded differ";
    EXPECT_TRUE(same_bytes(got[0].values, got[1].values)) << "values: fresh and loaded differ";
    EXPECT_EQ(got[0].count, got[1].count);
    const Unique<KO, VO> w = want(n);
    EXPECT_EQ(got[0].count, w.count);
    const auto [wrong_keys, first_key] = mismatches(got[0].keys, w.keys);
    EXPECT_EQ(wrong_keys, 0u) << "keys, first at " << first_key;
    const auto [wrong_values, first_value] = mismatches(got[0].values, w.values);
    EXPECT_EQ(wrong_values, 0u) << "values, first at " << first_value;
  };
  for_each_count(built(), index, kGpuCounts, per_count);
}

std::vector<std::int64_t> positions(std::uint64_t n) {
  std::vector<std::int64_t> p(n);
  for (std::uint64_t i = 0; i < n; ++i) p[i] = static_cast<std::int64_t>(i);
  return p;
}

TEST(UniqueByKeyIteratorGpu, EachRunsFirstPositionFromACountingValueInput) {
  std::vector<std::int32_t> keys;
  for (const bool discard : {false, true}) {
    SCOPED_TRACE(discard ? "keys discarded" : "keys written");
    run_unique<std::int32_t, std::int64_t>(
        discard ? 1 : 0,
        [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
            void* count, std::uint64_t n, auto& keep, CUstream s) {
          std::mt19937_64 rng(n + 1);
          keys = keys_in_runs<std::int32_t>(n, rng);
          const Output ko = discard ? Output(IteratorValue::discard()) : Output(keys_out);
          return exe(temp, bytes, on_device(keys, keep), IteratorValue::counting(std::int64_t{0}),
                     ko, values_out, count, n, s);
        },
        [&](std::uint64_t n) {
          auto w = first_of_runs<std::int32_t, std::int64_t>(keys, positions(n));
          if (discard) w.keys.assign(n, 0);
          return w;
        });
  }
}

TEST(UniqueByKeyIteratorGpu, RunsOfAHalvedCountingInputWrittenLastFirst) {
  // Keys (s + i) / 2 from s = -n/2 - 7 (truncating: a run of three around zero).
  auto start = [](std::uint64_t n) { return -static_cast<std::int64_t>(n / 2) - 7; };
  std::vector<float> values;
  run_unique<std::int64_t, float>(
      2,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
          void* count, std::uint64_t n, auto& keep, CUstream s) {
        values = random_values<float>(n, -1000, 1000, static_cast<std::uint32_t>(n) + 2);
        return exe(temp, bytes, IteratorValue::of(IteratorKind::transform, start(n)),
                   on_device(values, keep), IteratorValue::reverse(keys_out), values_out, count,
                   n, s);
      },
      [&](std::uint64_t n) {
        std::vector<std::int64_t> keys(n);
        for (std::uint64_t i = 0; i < n; ++i) keys[i] = (start(n) + static_cast<std::int64_t>(i)) / 2;
        auto w = first_of_runs<std::int64_t, float>(keys, values);
        std::vector<std::int64_t> reversed(n, 0);  // key j at n - 1 - j
        for (std::uint64_t j = 0; j < w.count; ++j) reversed[n - 1 - j] = w.keys[j];
        w.keys = reversed;
        return w;
      });
}

TEST(UniqueByKeyIteratorGpu, AReversedFloatKeyArrayItsGatheredValuesStoredNegated) {
  const auto table = random_values<std::int32_t>(4097, -100000, 100000, 3);
  std::vector<float> keys;
  std::vector<std::int32_t> idx;
  run_unique<float, double>(
      3,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
          void* count, std::uint64_t n, auto& keep, CUstream s) {
        std::mt19937_64 rng(n + 4);
        keys = keys_in_runs<float>(n, rng);
        idx = random_values<std::int32_t>(n, 0, 4096, static_cast<std::uint32_t>(n) + 5);
        return exe(temp, bytes, IteratorValue::reverse(on_device(keys, keep)),
                   IteratorValue::permutation(on_device(table, keep), on_device(idx, keep)),
                   keys_out, IteratorValue::transform(values_out), count, n, s);
      },
      [&](std::uint64_t n) {
        // Keys read last first; value i is table[idx[i]], stored as -value in float64.
        const std::vector<float> read(keys.rbegin(), keys.rend());
        std::vector<double> v(n);
        for (std::uint64_t i = 0; i < n; ++i) v[i] = -static_cast<double>(table[idx[i]]);
        return first_of_runs<float, double>(read, v);
      });
}

TEST(UniqueByKeyIteratorGpu, AConstantKeyIsOneRun) {
  std::vector<std::int32_t> values;
  run_unique<std::int32_t, std::int32_t>(
      4,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
          void* count, std::uint64_t n, auto& keep, CUstream s) {
        values = random_values<std::int32_t>(n, -50, 50, static_cast<std::uint32_t>(n) + 6);
        return exe(temp, bytes, IteratorValue::constant(std::int32_t{7}), on_device(values, keep),
                   keys_out, values_out, count, n, s);
      },
      [&](std::uint64_t n) {
        return first_of_runs<std::int32_t, std::int32_t>(std::vector<std::int32_t>(n, 7), values);
      });
}

TEST(UniqueByKeyIteratorGpu, AnArrayWhereTheSpecHasAnIteratorIsRefused) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const auto& fresh, const auto&, CUstream s) {
    if (i != 0) return;
    DeviceBuffer buf(4096);
    std::size_t bytes = 4096;
    EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), buf.get(), buf.get(), buf.get(), 100, s),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
