// Nested iterators on a GPU (skips without one): a dot product (reduce over a transform of a
// zip of two arrays), a gather in the order a shuffle fixes, a permutation of counts by
// computed indices, a transform over a two-array permutation, a three-argument operator over
// a zip, and a scan scattered by a shuffle; against host references on sizes 0, 1, 2, 1023,
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

// Every count: the fresh and loaded reduces of input(n, keep) equal each other and want(n).
template <auto Make, class T, class In, class Want>
void check_reduce(T init, In input, Want want) {
  SKIP_WITHOUT_GPU();
  with_fresh_and_loaded<Make>(kPrefix, [&](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      std::vector<IteratorValue> parts;
      parts.reserve(8);
      const IteratorValue in = input(n, keep, parts);
      const T a = reduce_on(fresh, in, n, init, stream);
      const T b = reduce_on(loaded, in, n, init, stream);
      EXPECT_EQ(std::memcmp(&a, &b, sizeof(T)), 0) << "fresh and store-loaded differ";
      EXPECT_EQ(a, want(n));
    }
  });
}

// Every count: the fresh and loaded scans of input(n, keep) equal each other and want(n).
template <auto Make, class T, class In, class Want>
void check_scan(ScanInit how, T init, In input, Want want) {
  SKIP_WITHOUT_GPU();
  with_fresh_and_loaded<Make>(kPrefix, [&](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      std::vector<IteratorValue> parts;
      parts.reserve(8);
      const IteratorValue in = input(n, keep, parts);
      const auto a = scan_on<T>(fresh, in, n, init, how, stream);
      const auto b = scan_on<T>(loaded, in, n, init, how, stream);
      EXPECT_TRUE(same_bytes(a, b)) << "fresh and store-loaded differ";
      const auto w = want(n);
      const auto [wrong, first] = mismatches(a, w);
      EXPECT_EQ(wrong, 0u) << "first at " << first;
    }
  });
}

// The shuffle's element i for a call of n items (the host's reference permutation).
std::uint64_t shuffled(std::uint64_t n, std::uint64_t seed, std::uint64_t i) {
  return cccl_cache::algos::detail::shuffle_index(cccl_cache::algos::detail::shuffle_state(n, seed), i);
}

TEST(NestedIteratorGpu, DotProductIsAReduceOverATransformOfAZip) {
  std::vector<std::int32_t> a, b;
  check_reduce<dot_product>(
      std::int64_t{7},
      [&](std::uint64_t n, auto& keep, auto& parts) {
        a = random_values<std::int32_t>(n, -99, 99, 3 + static_cast<std::uint32_t>(n));
        b = random_values<std::int32_t>(n, -99, 99, 5 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(a, keep)), IteratorValue::array(on_device(b, keep))};
        parts.push_back(IteratorValue::zip(parts.data(), 2));
        return IteratorValue::transform_of(&parts[2]);
      },
      [&](std::uint64_t n) {
        std::int64_t s = 7;
        for (std::uint64_t i = 0; i < n; ++i) s += std::int64_t{a[i]} * b[i];
        return s;
      });
}

TEST(NestedIteratorGpu, ValuesGatheredInTheOrderAShuffleFixes) {
  std::vector<std::int64_t> v;
  const std::uint64_t seed = 0x5eed;
  check_scan<shuffled_running_sum>(
      ScanInit::none, std::int64_t{0},
      [&](std::uint64_t n, auto& keep, auto& parts) {
        v = random_values<std::int64_t>(n, -1000000, 1000000, 9 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(v, keep)), IteratorValue::shuffle(seed)};
        return IteratorValue::permutation_of(parts.data());
      },
      [&](std::uint64_t n) {
        std::vector<std::int64_t> out(n);
        std::int64_t acc = 0;
        for (std::uint64_t i = 0; i < n; ++i) out[i] = acc += v[shuffled(n, seed, i)];
        return out;
      });
}

TEST(NestedIteratorGpu, CountsPermutedByComputedIndices) {
  const std::int64_t values_start = -(1ll << 20), index_start = 11;
  check_reduce<strided_counts>(
      std::int64_t{0},
      [&](std::uint64_t, auto&, auto& parts) {
        parts = {IteratorValue::counting(values_start), IteratorValue::of(IteratorKind::transform, index_start)};
        return IteratorValue::permutation_of(parts.data());
      },
      [&](std::uint64_t n) {
        std::int64_t s = 0;
        for (std::uint64_t i = 0; i < n; ++i) s += values_start + 3 * (index_start + static_cast<std::int64_t>(i));
        return s;
      });
}

TEST(NestedIteratorGpu, NegatedGatherIsATransformOverAPermutation) {
  std::vector<double> v;
  std::vector<std::int32_t> idx;
  check_reduce<negated_gather>(
      0.5,
      [&](std::uint64_t n, auto& keep, auto& parts) {
        v = random_values<double>(4096, -1000, 1000, 17);
        idx = random_values<std::int32_t>(n, 0, 4095, 19 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::permutation(on_device(v, keep), on_device(idx, keep))};
        return IteratorValue::transform_of(&parts[0]);
      },
      [&](std::uint64_t n) {
        double s = 0.5;  // integers: exact in any order
        for (std::uint64_t i = 0; i < n; ++i) s += -v[static_cast<std::size_t>(idx[i])];
        return s;
      });
}

TEST(NestedIteratorGpu, ThreeArgumentOperatorOverAZip) {
  std::vector<std::int64_t> a, b;
  const std::int64_t c = -5, init = 100;
  check_scan<running_madd>(
      ScanInit::host, init,
      [&](std::uint64_t n, auto& keep, auto& parts) {
        a = random_values<std::int64_t>(n, -1000, 1000, 23 + static_cast<std::uint32_t>(n));
        b = random_values<std::int64_t>(n, -1000, 1000, 29 + static_cast<std::uint32_t>(n));
        parts = {IteratorValue::array(on_device(a, keep)), IteratorValue::reverse(on_device(b, keep)),
                 IteratorValue::constant(c)};
        parts.push_back(IteratorValue::zip(parts.data(), 3));
        return IteratorValue::transform_of(&parts[3]);
      },
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

}  // namespace
