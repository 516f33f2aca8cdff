// Iterators as reduce inputs on a GPU (skips without one): a sum of squares as a reduce
// over a transform iterator, counting, constant, reverse, permutation, transform over
// counting and cache-modified (streaming, read-only cache) inputs, against host references on sizes 0, 1, 2, 1023, 1025 and 2^20 + 3;
// fresh (build -> bind) and store-loaded executables give bitwise identical results; a
// call whose iterator value is not of the spec's kind is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const std::uint64_t kCounts[] = {0, 1, 2, 1023, 1025, (1u << 20) + 3};

reduce::Spec reduce_over(ScalarType type, Iterator input) { return over<reduce::Spec>(type, std::move(input)); }

const Operator kSquareF = square_f();
const Operator kSquareI = Operator::custom(
    "square_i", "__device__ long long square_i(int x) { return (long long)x * x; }");

// The specs, in the order of the tests below.
std::vector<reduce::Spec> specs() {
  return {
      reduce_over(ScalarType::float32, Iterator::transform(kSquareF)),                   // 0
      reduce_over(ScalarType::int64, Iterator::transform(kSquareI, ScalarType::int32)),  // 1
      reduce_over(ScalarType::int64, Iterator::counting(ScalarType::int32)),             // 2
      reduce_over(ScalarType::uint32, Iterator::constant()),                             // 3
      reduce_over(ScalarType::uint32, Iterator::reverse()),                              // 4
      reduce_over(ScalarType::uint64,
                  Iterator::permutation(ScalarType::uint32, ScalarType::int32)),  // 5
      reduce_over(ScalarType::int64,
                  Iterator::transform(Operator::of(OpKind::negate), ScalarType::int64, true)),  // 6
      reduce_over(ScalarType::uint32, Iterator::cache_modified(CacheLoad::cs)),                   // 7
      reduce_over(ScalarType::float64,
                  Iterator::cache_modified(CacheLoad::ldg, ScalarType::float32)),  // 8
  };
}

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-iterator", specs());
  return b;
}

// reduce(init, in[0..n)) with plus on `exe`.
template <class T>
T reduce_on(const reduce::Executable& exe, const IteratorValue& in, std::uint64_t n,
            CUstream stream) {
  std::size_t bytes = 0;
  EXPECT_EQ(exe(nullptr, bytes, in, nullptr, n, nullptr, stream), CUDA_SUCCESS);
  EXPECT_EQ(bytes, exe.temp_storage_bytes(n));
  DeviceBuffer out(sizeof(T)), temp(bytes);
  const T init{};
  EXPECT_EQ(exe(temp.get(), bytes, in, out.get(), n, &init, stream), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  return read_device<T>(out.ptr, 1)[0];
}

// For spec `index`: for every count, the host reference want(n) and the device input
// made by input(n, buffers) on the fresh and the loaded executable, which agree bitwise.
template <class T, class Input, class Check>
void run_spec(std::size_t index, Input input, Check check) {
  SKIP_WITHOUT_GPU();
  const auto& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  for_each_fresh_and_loaded(b, [&](std::size_t i, const reduce::Executable& fresh,
                                   const reduce::Executable& loaded, CUstream stream) {
    if (i != index) return;
    for (const std::uint64_t n : kCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const IteratorValue in = input(n, keep);
      const T a = reduce_on<T>(fresh, in, n, stream);
      const T c = reduce_on<T>(loaded, in, n, stream);
      EXPECT_EQ(std::memcmp(&a, &c, sizeof(T)), 0) << a << " vs " << c;
      check(n, a);
    }
  });
}

TEST(IteratorGpu, SumOfSquaresIsAReduceOverATransformIterator) {
  std::vector<float> h;
  run_spec<float>(
      0,
      [&](std::uint64_t n, auto& keep) {
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        h.resize(n);
        for (auto& x : h) x = d(rng);
        return IteratorValue::transform(on_device(h, keep));
      },
      [&](std::uint64_t, float got) {
        double want = 0;
        for (const float x : h) want += double(x * x);
        EXPECT_NEAR(got, want, 1e-4 * std::max(1.0, want));
      });
}

TEST(IteratorGpu, IntegerSumOfSquaresIsExact) {
  std::vector<std::int32_t> h;
  run_spec<std::int64_t>(
      1,
      [&](std::uint64_t n, auto& keep) {
        h = random_values<std::int32_t>(n, -1000, 1000, 3 + static_cast<std::uint32_t>(n));
        return IteratorValue::transform(on_device(h, keep));
      },
      [&](std::uint64_t, std::int64_t got) {
        std::int64_t want = 0;
        for (const auto x : h) want += std::int64_t(x) * x;
        EXPECT_EQ(got, want);
      });
}

TEST(IteratorGpu, CountingInputSumsStartToStartPlusN) {
  const std::int32_t start = -700;
  run_spec<std::int64_t>(
      2, [&](std::uint64_t, auto&) { return IteratorValue::counting(start); },
      [&](std::uint64_t n, std::int64_t got) {
        std::int64_t want = 0;
        for (std::uint64_t i = 0; i < n; ++i)
          want += static_cast<std::int32_t>(start + std::int32_t(i));
        EXPECT_EQ(got, want);
      });
}

TEST(IteratorGpu, ConstantInputSumsNTimesTheValue) {
  const std::uint32_t value = 0x9e3779b9u;
  run_spec<std::uint32_t>(
      3, [&](std::uint64_t, auto&) { return IteratorValue::constant(value); },
      [&](std::uint64_t n, std::uint32_t got) {
        EXPECT_EQ(got, static_cast<std::uint32_t>(value * static_cast<std::uint32_t>(n)));
      });
}

TEST(IteratorGpu, ReverseInputReadsEveryElementOnce) {
  std::vector<std::uint32_t> h;
  run_spec<std::uint32_t>(
      4,
      [&](std::uint64_t n, auto& keep) {
        h = random_values<std::uint32_t>(n, 0, 1 << 30, 5 + static_cast<std::uint32_t>(n));
        return IteratorValue::reverse(on_device(h, keep));
      },
      [&](std::uint64_t, std::uint32_t got) {
        std::uint32_t want = 0;
        for (const auto x : h) want += x;
        EXPECT_EQ(got, want);
      });
}

TEST(IteratorGpu, PermutationInputGathersByIndex) {
  std::vector<std::uint32_t> values;
  std::vector<std::int32_t> index;
  run_spec<std::uint64_t>(
      5,
      [&](std::uint64_t n, auto& keep) {
        values = random_values<std::uint32_t>(1000, 0, 1 << 30, 11);
        index = random_values<std::int32_t>(n, 0, 999, 13 + static_cast<std::uint32_t>(n));
        return IteratorValue::permutation(on_device(values, keep), on_device(index, keep));
      },
      [&](std::uint64_t, std::uint64_t got) {
        std::uint64_t want = 0;
        for (const auto i : index) want += values[static_cast<std::size_t>(i)];
        EXPECT_EQ(got, want);
      });
}

TEST(IteratorGpu, TransformOverCountingNegates) {
  const std::int64_t start = 1ll << 40;
  run_spec<std::int64_t>(
      6, [&](std::uint64_t, auto&) { return IteratorValue::of(IteratorKind::transform, start); },
      [&](std::uint64_t n, std::int64_t got) {
        std::int64_t want = 0;
        for (std::uint64_t i = 0; i < n; ++i) want -= start + std::int64_t(i);
        EXPECT_EQ(got, want);
      });
}

TEST(IteratorGpu, StreamingLoadsReadEveryElement) {
  std::vector<std::uint32_t> h;
  run_spec<std::uint32_t>(
      7,
      [&](std::uint64_t n, auto& keep) {
        h = random_values<std::uint32_t>(n, 0, 1 << 30, 17 + static_cast<std::uint32_t>(n));
        return IteratorValue::cache_modified(on_device(h, keep));
      },
      [&](std::uint64_t, std::uint32_t got) {
        std::uint32_t want = 0;
        for (const auto x : h) want += x;
        EXPECT_EQ(got, want);
      });
}

TEST(IteratorGpu, ReadOnlyCacheLoadsOfFloatsSummedAsFloat64) {
  std::vector<float> h;
  run_spec<double>(
      8,
      [&](std::uint64_t n, auto& keep) {
        // Integers: every partial sum is exact in float64, in any order.
        h = random_values<float>(n, -1000, 1000, 19 + static_cast<std::uint32_t>(n));
        return IteratorValue::cache_modified(on_device(h, keep));
      },
      [&](std::uint64_t, double got) {
        double want = 0;
        for (const float x : h) want += x;
        EXPECT_EQ(got, want);
      });
}

TEST(IteratorGpu, AValueOfAnotherKindOrADeviceArrayIsRefused) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const reduce::Executable& fresh,
                                        const reduce::Executable&, CUstream stream) {
    if (i != 2) return;  // counting
    DeviceBuffer out(8), temp(1 << 20), array(64);
    std::size_t bytes = 1 << 20;
    const std::int64_t init = 0;
    EXPECT_EQ(fresh(temp.get(), bytes, IteratorValue::constant(1), out.get(), 4, &init, stream),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(
        fresh(temp.get(), bytes, IteratorValue::array(array.get()), out.get(), 4, &init, stream),
        CUDA_ERROR_INVALID_VALUE);
    // The array overload of an iterator spec.
    EXPECT_EQ(fresh(temp.get(), bytes, array.get(), out.get(), 4, &init, stream),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
