// Binary search over iterators on a GPU (skips without one): where each of a counting
// input's integers goes (lower bound into an array, upper bound written last first), the
// bounds of a reversed float array scattered by a permutation, and of i / 2 over a
// counting input (a transform iterator) stored negated as float64 (a transform output);
// ranges that are iterators: a counting range, and i / 2 over a counting base ordered by
// a stateful comparator;
// 4097 sorted items with runs of equal ones, value counts 0, 1, 2, 1023, 1025, 2^20 + 3
// and 2^26, against std::lower_bound / upper_bound; fresh (build -> bind) and
// store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const Operator kHalve =
    Operator::custom("halve", "__device__ long long halve(long long i) { return i / 2; }");

binary_search::Spec search_of(ScalarType type, bool upper, Iterator values_in, Iterator output = {}) {
  binary_search::Spec s = upper ? binary_search::upper_bound(type) : binary_search::lower_bound(type);
  s.values_in = std::move(values_in);
  s.output = std::move(output);
  return s;
}

// a / d < b / d, d: int64 (the state): the order of i / 2 coarsened to steps of d.
const Operator kCoarseLess = Operator::custom(
    "coarse_less",
    "__device__ bool coarse_less(void* s, long long a, long long b) {\n"
    "  const long long d = *static_cast<long long*>(s);\n  return a / d < b / d;\n}",
    8, 8);

// An int64 lower bound whose sorted range is an iterator (data_in).
binary_search::Spec over_range(Iterator data_in, Operator comparator, Iterator values_in = {}) {
  binary_search::Spec s = search_of(ScalarType::int64, false, std::move(values_in));
  s.data_in = std::move(data_in);
  s.comparator = std::move(comparator);
  return s;
}

std::vector<binary_search::Spec> specs() {
  const auto i64 = ScalarType::int64;
  return {
      search_of(i64, false, Iterator::counting()),                       // 0
      search_of(i64, true, Iterator::counting(), Iterator::reverse()),  // 1
      search_of(ScalarType::float32, false, Iterator::reverse(),
                Iterator::permutation(ScalarType::none, ScalarType::int32)),  // 2
      search_of(i64, false, Iterator::transform(kHalve, i64, true),
                Iterator::transform(Operator::of(OpKind::negate), ScalarType::float64)),  // 3
      over_range(Iterator::counting(), Operator::less()),                                // 4
      over_range(Iterator::transform(kHalve, i64, true), kCoarseLess, Iterator::counting()),  // 5
  };
}

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-binary-search-iterator", specs());
  return b;
}

constexpr std::size_t kRange = 4097;

// 4097 sorted T from [lo, hi] (runs of equal items), from `seed`.
template <class T>
std::vector<T> sorted_range(int lo, int hi, std::uint32_t seed) {
  auto v = random_values<T>(kRange, lo, hi, seed);
  std::sort(v.begin(), v.end());
  return v;
}

// The bound of x in `range`.
template <class T>
std::int64_t bound(const std::vector<T>& range, T x, bool upper) {
  const auto it = upper ? std::upper_bound(range.begin(), range.end(), x)
                        : std::lower_bound(range.begin(), range.end(), x);
  return it - range.begin();
}

// For spec `index` over `range`, every value count: call(exe, temp, bytes, d_range, out, n,
// keep, stream) by the fresh and the loaded executable, each into its own zeroed array of
// n O, agree bitwise with each other and with want(n).
template <class O, class T, class Call, class Want>
void run_search(std::size_t index, const std::vector<T>& range, Call call, Want want) {
  SKIP_WITHOUT_GPU();
  std::vector<std::unique_ptr<DeviceBuffer>> keep_range;
  const void* d_range = nullptr;  // copied once a bind has made the context current
  auto per_count = [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep,
                       CUstream stream) {
    if (d_range == nullptr) d_range = on_device(range, keep_range);
    std::vector<O> results[2];
    int r = 0;
    for (const auto* exe : {&fresh, &loaded}) {
      const auto array = zeroed<O>(n);
      ASSERT_EQ(array->status, CUDA_SUCCESS);
      query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) -> CUresult {
        return call(*exe, temp, bytes, d_range, array->get(), n, keep, stream);
      });
      results[r++] = copy_to_host<O>(*array, n);
    }
    expect_fresh_and_loaded(results, want(n));
  };
  for_each_count(built(), index, kGpuCounts, per_count);
}

TEST(BinarySearchIteratorGpu, WhereEachIntegerOfACountingInputGoes) {
  const auto range = sorted_range<std::int64_t>(-3000, 3000, 11);
  for (const bool upper : {false, true}) {
    SCOPED_TRACE(upper ? "upper bound, written last first" : "lower bound");
    run_search<std::int64_t>(
        upper ? 1 : 0, range,
        [&](const auto& exe, void* temp, std::size_t& bytes, const void* d_range, void* out,
            std::uint64_t n, auto&, CUstream s) {
          const Output o = upper ? Output(IteratorValue::reverse(out)) : Output(out);
          return exe(temp, bytes, d_range, kRange, IteratorValue::counting(std::int64_t{-4000}), n,
                     o, s);
        },
        [&](std::uint64_t n) {
          std::vector<std::int64_t> w(n);
          for (std::uint64_t i = 0; i < n; ++i)
            w[upper ? n - 1 - i : i] = bound(range, -4000 + static_cast<std::int64_t>(i), upper);
          return w;
        });
  }
}

TEST(BinarySearchIteratorGpu, AReversedArrayScatteredByAPermutation) {
  const auto range = sorted_range<float>(-100, 100, 12);
  std::vector<float> h;
  std::vector<std::int32_t> perm;
  run_search<std::int64_t>(
      2, range,
      [&](const auto& exe, void* temp, std::size_t& bytes, const void* d_range, void* out,
          std::uint64_t n, auto& keep, CUstream s) {
        h = random_values<float>(n, -120, 120, static_cast<std::uint32_t>(n) + 13);
        perm.resize(n);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937(static_cast<std::uint32_t>(n) + 14));
        return exe(temp, bytes, d_range, kRange, IteratorValue::reverse(on_device(h, keep)), n,
                   IteratorValue::permutation(out, on_device(perm, keep)), s);
      },
      [&](std::uint64_t n) {
        // Value k (read last first) lands at perm[k].
        std::vector<std::int64_t> w(n);
        for (std::uint64_t k = 0; k < n; ++k)
          w[static_cast<std::size_t>(perm[k])] = bound(range, h[n - 1 - k], false);
        return w;
      });
}

TEST(BinarySearchIteratorGpu, HalvedCountingInputStoredNegatedAsFloat64) {
  const auto range = sorted_range<std::int64_t>(0, 5000, 15);
  run_search<double>(
      3, range,
      [&](const auto& exe, void* temp, std::size_t& bytes, const void* d_range, void* out,
          std::uint64_t n, auto&, CUstream s) {
        return exe(temp, bytes, d_range, kRange,
                   IteratorValue::of(IteratorKind::transform, std::int64_t{-10}), n,
                   IteratorValue::transform(out), s);
      },
      [&](std::uint64_t n) {
        // negate applies to the int64 bound, then the result is stored as float64: a bound
        // of 0 is +0.0, not the -0.0 that negating a double gives.
        std::vector<double> w(n);
        for (std::uint64_t i = 0; i < n; ++i)
          w[i] = static_cast<double>(-bound(range, (-10 + static_cast<std::int64_t>(i)) / 2, false));
        return w;
      });
}

// The range a counting iterator from -500 over 5000 integers: a value's lower bound is
// its distance from -500, clamped to [0, 5000].
TEST(BinarySearchIteratorGpu, AmongTheIntegersOfACountingRange) {
  constexpr std::int64_t kStart = -500, kItems = 5000;
  std::vector<std::int64_t> h;
  run_search<std::int64_t>(
      4, std::vector<std::int64_t>{0},
      [&](const auto& exe, void* temp, std::size_t& bytes, const void*, void* out,
          std::uint64_t n, auto& keep, CUstream s) {
        h = random_values<std::int64_t>(n, -1000, 6000, static_cast<std::uint32_t>(n) + 21);
        return exe(temp, bytes, IteratorValue::counting(kStart), kItems, on_device(h, keep), n,
                   out, s);
      },
      [&](std::uint64_t n) {
        std::vector<std::int64_t> w(n);
        for (std::uint64_t i = 0; i < n; ++i) w[i] = std::clamp<std::int64_t>(h[i] - kStart, 0, kItems);
        return w;
      });
}

// The range i / 2 over 100003 indices (a transform of a counting base), ordered by a
// stateful comparator coarsening it to steps of d: each of a counting input's values v
// has the lower bound 2 d (v / d), clamped; d = 1 and 3 on one executable (the state
// after the range's bytes and count).
TEST(BinarySearchIteratorGpu, AHalvedRangeByAStatefulComparator) {
  constexpr std::int64_t kItems = 100003;
  for (const std::int64_t d : {1, 3}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    run_search<std::int64_t>(
        5, std::vector<std::int64_t>{0},
        [&](const auto& exe, void* temp, std::size_t& bytes, const void*, void* out,
            std::uint64_t n, auto&, CUstream s) {
          return exe(temp, bytes, IteratorValue::of(IteratorKind::transform, std::int64_t{0}), kItems,
                     IteratorValue::counting(std::int64_t{0}), n, out, s, OpState{&d, sizeof d});
        },
        [&](std::uint64_t n) {
          std::vector<std::int64_t> w(n);
          for (std::uint64_t v = 0; v < n; ++v)
            w[v] = std::min<std::int64_t>(kItems, 2 * d * (static_cast<std::int64_t>(v) / d));
          return w;
        });
  }
}

}  // namespace
