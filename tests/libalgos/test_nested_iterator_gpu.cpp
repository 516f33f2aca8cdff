// Nested iterators on a GPU (skips without one): a dot product (reduce over a transform of a
// zip of two arrays), a gather in the order a shuffle fixes, a permutation of counts by
// computed indices, a transform over a two-array permutation, a three-argument operator over
// a zip, a scan scattered by a shuffle, two reverses over iterators (a transform over
// counting, a shuffled gather), and transforms with stateful operators (over counting,
// over a zip, as an output); against host references on sizes 0, 1, 2, 1023,
// 1025, 2^20 + 3 and 2^26, fresh (build -> bind) and store-loaded executables bitwise
// identical.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "core/iterator.hpp"
#include "gpu_support.hpp"
#include "nested_iterator_specs.hpp"
#include "stateful_iterator_specs.hpp"
#include "scan_gpu_support.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

constexpr const char* kPrefix = "cccl-nested-";

// One reduce on `exe` of n items read through `in` into a value of T, `init` first.
template <class T, class Exe>
T reduce_on(const Exe& exe, const Input& in, std::uint64_t n, T init, CUstream stream) {
  DeviceBuffer out(sizeof(T));
  query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
    return exe(temp, bytes, in, out.get(), n, &init, stream);
  });
  return copy_to_host<T>(out, 1)[0];
}

// The fresh result equals the host's: a value, or every item of a vector.
template <class T>
void expect_host_result(const T& got, const T& want) {
  EXPECT_EQ(got, want);
}
template <class T>
void expect_host_result(const std::vector<T>& got, const std::vector<T>& want) {
  const auto [wrong, first] = mismatches(got, want);
  EXPECT_EQ(wrong, 0u) << "first at " << first;
}

// Every count: run(exe, in, n, stream) on the fresh and on the loaded executable of Make()
// over input(n, keep, parts) (parts: the nested iterators' values), bitwise equal, and the
// fresh one's result want(n).
template <auto Make, class In, class Run, class Want>
void check(In input, Run run, Want want) {
  SKIP_WITHOUT_GPU();
  with_fresh_and_loaded<Make>(kPrefix, [&](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      std::vector<IteratorValue> parts;
      parts.reserve(8);  // the values point into it
      const IteratorValue in = input(n, keep, parts);
      const auto a = run(fresh, in, n, stream);
      const auto b = run(loaded, in, n, stream);
      if constexpr (requires { a.size(); })
        EXPECT_TRUE(same_bytes(a, b)) << "fresh and store-loaded differ";
      else
        EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "fresh and store-loaded differ";
      expect_host_result(a, want(n));
    }
  });
}

// A reduce from `init` (check's run).
template <class T>
auto reduce_from(T init) {
  return [init](const auto& exe, const Input& in, std::uint64_t n, CUstream stream) {
    return reduce_on(exe, in, n, init, stream);
  };
}

// A scan seeded as `how` says (check's run).
template <class T>
auto scan_from(ScanInit how, T init) {
  return [how, init](const auto& exe, const Input& in, std::uint64_t n, CUstream stream) {
    return scan_on<T>(exe, in, n, init, how, stream);
  };
}

// The shuffle's element i for a call of n items (the host's reference permutation).
std::uint64_t shuffled(std::uint64_t n, std::uint64_t seed, std::uint64_t i) {
  return cccl_cache::algos::detail::shuffle_index(cccl_cache::algos::detail::shuffle_state(n, seed), i);
}

TEST(NestedIteratorGpu, DotProductIsAReduceOverATransformOfAZip) {
  std::vector<std::int32_t> a, b;
  check<dot_product>(
      [&](std::uint64_t n, auto& keep, auto& parts) {
        a = random_values<std::int32_t>(n, -99, 99, 3 + static_cast<std::uint32_t>(n));
        b = random_values<std::int32_t>(n, -99, 99, 5 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(a, keep)), IteratorValue::array(on_device(b, keep))};
        parts.push_back(IteratorValue::zip(parts.data(), 2));
        return IteratorValue::transform_of(&parts[2]);
      },
      reduce_from(std::int64_t{7}),
      [&](std::uint64_t n) {
        std::int64_t s = 7;
        for (std::uint64_t i = 0; i < n; ++i) s += std::int64_t{a[i]} * b[i];
        return s;
      });
}

TEST(NestedIteratorGpu, ValuesGatheredInTheOrderAShuffleFixes) {
  std::vector<std::int64_t> v;
  const std::uint64_t seed = 0x5eed;
  check<shuffled_running_sum>(
      [&](std::uint64_t n, auto& keep, auto& parts) {
        v = random_values<std::int64_t>(n, -1000000, 1000000, 9 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(v, keep)), IteratorValue::shuffle(seed)};
        return IteratorValue::permutation_of(parts.data());
      },
      scan_from(ScanInit::none, std::int64_t{0}),
      [&](std::uint64_t n) {
        std::vector<std::int64_t> out(n);
        std::int64_t acc = 0;
        for (std::uint64_t i = 0; i < n; ++i) out[i] = acc += v[shuffled(n, seed, i)];
        return out;
      });
}

TEST(NestedIteratorGpu, CountsPermutedByComputedIndices) {
  const std::int64_t values_start = -(1ll << 20), index_start = 11;
  check<strided_counts>(
      [&](std::uint64_t, auto&, auto& parts) {
        parts = {IteratorValue::counting(values_start), IteratorValue::of(IteratorKind::transform, index_start)};
        return IteratorValue::permutation_of(parts.data());
      },
      reduce_from(std::int64_t{0}),
      [&](std::uint64_t n) {
        std::int64_t s = 0;
        for (std::uint64_t i = 0; i < n; ++i) s += values_start + 3 * (index_start + static_cast<std::int64_t>(i));
        return s;
      });
}

TEST(NestedIteratorGpu, NegatedGatherIsATransformOverAPermutation) {
  std::vector<double> v;
  std::vector<std::int32_t> idx;
  check<negated_gather>(
      [&](std::uint64_t n, auto& keep, auto& parts) {
        v = random_values<double>(4096, -1000, 1000, 17);
        idx = random_values<std::int32_t>(n, 0, 4095, 19 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::permutation(on_device(v, keep), on_device(idx, keep))};
        return IteratorValue::transform_of(&parts[0]);
      },
      reduce_from(0.5),
      [&](std::uint64_t n) {
        double s = 0.5;  // integers: exact in any order
        for (std::uint64_t i = 0; i < n; ++i) s += -v[static_cast<std::size_t>(idx[i])];
        return s;
      });
}

TEST(NestedIteratorGpu, ThreeArgumentOperatorOverAZip) {
  std::vector<std::int64_t> a, b;
  const std::int64_t c = -5, init = 100;
  check<running_madd>(
      [&](std::uint64_t n, auto& keep, auto& parts) {
        a = random_values<std::int64_t>(n, -1000, 1000, 23 + static_cast<std::uint32_t>(n));
        b = random_values<std::int64_t>(n, -1000, 1000, 29 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(a, keep)), IteratorValue::reverse(on_device(b, keep)),
                 IteratorValue::constant(c)};
        parts.push_back(IteratorValue::zip(parts.data(), 3));
        return IteratorValue::transform_of(&parts[3]);
      },
      scan_from(ScanInit::host, init),
      [&](std::uint64_t n) {
        std::vector<std::int64_t> out(n);
        std::int64_t acc = init;
        for (std::uint64_t i = 0; i < n; ++i) {
          out[i] = acc;
          acc += a[i] * b[n - 1 - i] + c;
        }
        return out;
      });
}

TEST(NestedIteratorGpu, CountsReadLastFirstThroughAReverseOverATransform) {
  const std::int64_t start = -(1ll << 33);
  check<reversed_counts>(
      [&](std::uint64_t, auto&, auto& parts) {
        parts = {IteratorValue::of(IteratorKind::transform, start)};
        return IteratorValue::reverse_of(&parts[0]);
      },
      scan_from(ScanInit::none, std::int64_t{0}),
      [&](std::uint64_t n) {
        std::vector<std::int64_t> out(n);
        std::int64_t acc = 0;
        for (std::uint64_t i = 0; i < n; ++i) out[i] = acc += 3 * (start + static_cast<std::int64_t>(n - 1 - i));
        return out;
      });
}

TEST(NestedIteratorGpu, AShuffledGatherReadLastFirst) {
  std::vector<std::int64_t> v;
  const std::uint64_t seed = 0xfeed;
  check<reversed_gather>(
      [&](std::uint64_t n, auto& keep, auto& parts) {
        v = random_values<std::int64_t>(n, -1000000, 1000000, 37 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(v, keep)), IteratorValue::shuffle(seed)};
        parts.push_back(IteratorValue::permutation_of(parts.data()));
        return IteratorValue::reverse_of(&parts[2]);
      },
      scan_from(ScanInit::none, std::int64_t{0}),
      [&](std::uint64_t n) {
        std::vector<std::int64_t> out(n);
        std::int64_t acc = 0;
        for (std::uint64_t i = 0; i < n; ++i) out[i] = acc += v[shuffled(n, seed, n - 1 - i)];
        return out;
      });
}

TEST(NestedIteratorGpu, RunningSumScatteredByAShuffle) {
  SKIP_WITHOUT_GPU();
  const std::uint64_t seed = 77;
  with_fresh_and_loaded<scattered_running_sum>(kPrefix, [&](const auto& fresh, const auto& loaded,
                                                            CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const auto h = random_values<std::int32_t>(n, -1000, 1000, 31 + static_cast<std::uint32_t>(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_in = on_device(h, keep);
      std::vector<std::int32_t> got[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        DeviceBuffer out(n * sizeof(std::int32_t));
        const IteratorValue parts[] = {IteratorValue::array(out.get()), IteratorValue::shuffle(seed)};
        query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return (*exe)(temp, bytes, d_in, IteratorValue::permutation_of(parts), n, stream);
        });
        got[r++] = copy_to_host<std::int32_t>(out, n);
      }
      std::vector<std::int32_t> want(n);
      std::int32_t acc = 0;
      for (std::uint64_t i = 0; i < n; ++i) want[shuffled(n, seed, i)] = acc += h[i];
      expect_fresh_and_loaded(got, want);
    }
  });
}

// Transform iterators with stateful operators: the state is the call's, packed into the
// iterator (IteratorValue::with_state).
TEST(StatefulIteratorGpu, AffineCountsSummedThroughTheStatesCoefficients) {
  const Affine state{3, -7};
  const std::int64_t start = -(1ll << 20);
  check<affine_sum>(
      [&](std::uint64_t, auto&, auto&) { return IteratorValue::of(IteratorKind::transform, start).with_state(&state); },
      reduce_from(std::int64_t{5}),
      [&](std::uint64_t n) {
        std::int64_t s = 5;
        for (std::uint64_t i = 0; i < n; ++i) s += state.a * (start + static_cast<std::int64_t>(i)) + state.b;
        return s;
      });
}

TEST(StatefulIteratorGpu, WeightedPairsScannedThroughAZip) {
  std::vector<float> x, y;
  const float w[2] = {0.5f, 0.25f};
  check<weighted_running_sum>(
      [&](std::uint64_t n, auto& keep, auto& parts) {
        // Small integers: every partial sum is a multiple of 0.25 far below 2^21, exact in
        // any order.
        x = random_values<float>(n, -2, 2, 41 + static_cast<std::uint32_t>(n));
        y = random_values<float>(n, -2, 2, 43 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(x, keep)), IteratorValue::array(on_device(y, keep))};
        parts.push_back(IteratorValue::zip(parts.data(), 2));
        return IteratorValue::transform_of(&parts[2]).with_state(w);
      },
      scan_from(ScanInit::none, 0.0f),
      [&](std::uint64_t n) {
        std::vector<float> out(n);
        float acc = 0;
        for (std::uint64_t i = 0; i < n; ++i) out[i] = acc += w[0] * x[i] + w[1] * y[i];
        return out;
      });
}

TEST(StatefulIteratorGpu, RunningSumsStoredScaledThroughAnOutputsState) {
  SKIP_WITHOUT_GPU();
  const double k = 0.25;
  with_fresh_and_loaded<scaled_running_sum>(kPrefix, [&](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const auto h = random_values<std::int32_t>(n, -1000, 1000, 47 + static_cast<std::uint32_t>(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_in = on_device(h, keep);
      std::vector<double> got[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        DeviceBuffer out(n * sizeof(double));
        query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return (*exe)(temp, bytes, d_in, IteratorValue::transform(out.get()).with_state(&k), n, stream);
        });
        got[r++] = copy_to_host<double>(out, n);
      }
      std::vector<double> want(n);
      std::int32_t acc = 0;
      for (std::uint64_t i = 0; i < n; ++i) want[i] = (acc += h[i]) * k;
      expect_fresh_and_loaded(got, want);
    }
  });
}

}  // namespace
