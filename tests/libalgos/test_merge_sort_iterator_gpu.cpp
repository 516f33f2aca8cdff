// Merge sort over input iterators on a GPU (skips without one): an argsort (float keys,
// a counting value input), int64 keys read negated (a transform over the array), int32
// keys read last first sorted descending (keys only), a shuffle of 0..n-1 sorted with
// counting values (the shuffle's inverse), and gathered float keys with constant values;
// against a host stable sort on sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26, fresh
// (build -> bind) and store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "core/iterator.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"
#include "merge_sort_iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

std::vector<merge_sort::Spec> specs() { return test_support::merge_sort_iterator_specs(); }

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-merge-sort-iterator", specs());
  return b;
}

// The keys and values a sort should leave.
template <class K, class V>
struct Sorted {
  std::vector<K> keys;
  std::vector<V> values;
};

// `keys` and `values` (as read) stably sorted by key under `before` (CUB's merge sort is
// stable).
template <class K, class V, class Before = std::less<K>>
Sorted<K, V> stable_sorted(const std::vector<K>& keys, const std::vector<V>& values,
                           Before before = {}) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return before(keys[a], keys[b]); });
  Sorted<K, V> w{std::vector<K>(keys.size()), std::vector<V>(values.size())};
  for (std::size_t i = 0; i < order.size(); ++i) {
    w.keys[i] = keys[order[i]];
    if (!values.empty()) w.values[i] = values[order[i]];
  }
  return w;
}

// For spec `index`, every count: call(exe, temp, bytes, keys_out, values_out, n, keep,
// stream) by the fresh and the loaded executable, each into its own zeroed arrays of n K
// (and n V unless V is void-like: values false), agree bitwise with each other and with
// want(n).
template <class K, class V, class Call, class Want>
void run_sort(std::size_t index, bool values, Call call, Want want) {
  SKIP_WITHOUT_GPU();
  auto per_count = [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep,
                       CUstream stream) {
    Sorted<K, V> got[2];
    int r = 0;
    for (const auto* exe : {&fresh, &loaded}) {
      const auto keys = zeroed<K>(n);
      const auto vals = zeroed<V>(values ? n : 0);
      query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) -> CUresult {
        return call(*exe, temp, bytes, keys->get(), values ? vals->get() : nullptr, n, keep,
                    stream);
      });
      got[r].keys = copy_to_host<K>(*keys, n);
      if (values) got[r].values = copy_to_host<V>(*vals, n);
      ++r;
    }
    EXPECT_TRUE(same_bytes(got[0].keys, got[1].keys)) << "keys: fresh and loaded differ";
    EXPECT_TRUE(same_bytes(got[0].values, got[1].values)) << "values: fresh and loaded differ";
    const Sorted<K, V> w = want(n);
    const auto [wrong_keys, first_key] = mismatches(got[0].keys, w.keys);
    EXPECT_EQ(wrong_keys, 0u) << "keys, first at " << first_key;
    if (values) {
      const auto [wrong_values, first_value] = mismatches(got[0].values, w.values);
      EXPECT_EQ(wrong_values, 0u) << "values, first at " << first_value;
    }
  };
  for_each_count(built(), index, kGpuCounts, per_count);
}

std::vector<std::int64_t> positions(std::uint64_t n) {
  std::vector<std::int64_t> p(n);
  std::iota(p.begin(), p.end(), std::int64_t{0});
  return p;
}

TEST(MergeSortIteratorGpu, AnArgsortFromACountingValueInput) {
  std::vector<float> keys;
  run_sort<float, std::int64_t>(
      0, true,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
          std::uint64_t n, auto& keep, CUstream s) {
        keys = random_values<float>(n, -1000, 1000, static_cast<std::uint32_t>(n) + 1);
        return exe(temp, bytes, on_device(keys, keep), IteratorValue::counting(std::int64_t{0}),
                   keys_out, values_out, n, s);
      },
      [&](std::uint64_t n) { return stable_sorted(keys, positions(n)); });
}

TEST(MergeSortIteratorGpu, KeysReadNegatedThroughATransform) {
  std::vector<std::int64_t> keys;
  std::vector<std::int32_t> values;
  run_sort<std::int64_t, std::int32_t>(
      1, true,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
          std::uint64_t n, auto& keep, CUstream s) {
        keys = random_values<std::int64_t>(n, -5000, 5000, static_cast<std::uint32_t>(n) + 2);
        values = random_values<std::int32_t>(n, -9, 9, static_cast<std::uint32_t>(n) + 3);
        return exe(temp, bytes, IteratorValue::transform(on_device(keys, keep)),
                   on_device(values, keep), keys_out, values_out, n, s);
      },
      [&](std::uint64_t) {
        std::vector<std::int64_t> negated(keys.size());
        std::transform(keys.begin(), keys.end(), negated.begin(), std::negate<>());
        return stable_sorted(negated, values);
      });
}

TEST(MergeSortIteratorGpu, KeysReadLastFirstSortedDescendingKeysOnly) {
  std::vector<std::int32_t> keys;
  run_sort<std::int32_t, std::int32_t>(
      2, false,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void*,
          std::uint64_t n, auto& keep, CUstream s) {
        keys = random_values<std::int32_t>(n, -100000, 100000, static_cast<std::uint32_t>(n) + 4);
        return exe(temp, bytes, IteratorValue::reverse(on_device(keys, keep)), nullptr, keys_out,
                   nullptr, n, s);
      },
      [&](std::uint64_t) {
        const std::vector<std::int32_t> read(keys.rbegin(), keys.rend());
        return stable_sorted(read, std::vector<std::int32_t>{}, std::greater<>());
      });
}

TEST(MergeSortIteratorGpu, AShuffleSortedWithCountingValuesGivesItsInverse) {
  constexpr std::uint64_t kSeed = 0x5eed;
  run_sort<std::int64_t, std::int64_t>(
      3, true,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
          std::uint64_t n, auto&, CUstream s) {
        return exe(temp, bytes, IteratorValue::shuffle(kSeed),
                   IteratorValue::counting(std::int64_t{0}), keys_out, values_out, n, s);
      },
      [&](std::uint64_t n) {
        // Sorted keys are 0..n-1; the value at k is the position i with P(i) = k.
        const detail::ShuffleState state = detail::shuffle_state(n, kSeed);
        Sorted<std::int64_t, std::int64_t> w{positions(n), std::vector<std::int64_t>(n)};
        for (std::uint64_t i = 0; i < n; ++i)
          w.values[detail::shuffle_index(state, i)] = static_cast<std::int64_t>(i);
        return w;
      });
}

TEST(MergeSortIteratorGpu, GatheredKeysWithConstantValues) {
  const auto table = random_values<float>(4097, -100, 100, 5);
  std::vector<std::int32_t> idx;
  run_sort<float, std::int32_t>(
      4, true,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* keys_out, void* values_out,
          std::uint64_t n, auto& keep, CUstream s) {
        idx = random_values<std::int32_t>(n, 0, 4096, static_cast<std::uint32_t>(n) + 6);
        return exe(temp, bytes, IteratorValue::permutation(on_device(table, keep), on_device(idx, keep)),
                   IteratorValue::constant(std::int32_t{-3}), keys_out, values_out, n, s);
      },
      [&](std::uint64_t n) {
        std::vector<float> read(n);
        for (std::uint64_t i = 0; i < n; ++i) read[i] = table[idx[i]];
        return stable_sorted(read, std::vector<std::int32_t>(n, -3));
      });
}

TEST(MergeSortIteratorGpu, AnArrayWhereTheSpecHasAnIteratorIsRefused) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const auto& fresh, const auto&, CUstream s) {
    if (i != 0) return;
    DeviceBuffer buf(4096);
    std::size_t bytes = 4096;
    EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), buf.get(), buf.get(), 100, s),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
