// histogram_even over sample iterators on a GPU (skips without one): the bins of
// consecutive integers (counting), of the squares of a float array (transform), of a
// reversed byte array (CUB's byte-sample path), of float values gathered by random
// indices (permutation, int64 offsets) and of a constant; sample counts 0, 1, 2, 1023,
// 1025, 2^20 + 3 and 2^26 into 256 bins (shared) and 2048 (global), against the host
// reference; fresh (build -> bind) and store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "histogram_reference.hpp"
#include "iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

std::vector<histogram_even::Spec> specs() {
  const auto f32 = ScalarType::float32;
  return {
      histogram_of(ScalarType::int32, Iterator::counting()),                          // 0
      histogram_of(f32, Iterator::transform(square_f(), f32)),                       // 1
      histogram_of(ScalarType::uint8, Iterator::reverse()),                           // 2
      histogram_of(f32, Iterator::permutation(ScalarType::none, ScalarType::int64),  // 3
                   ScalarType::int64),
      histogram_of(ScalarType::int64, Iterator::constant()),  // 4
  };
}

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-histogram-even-iterator", specs());
  return b;
}

// For spec `index` with bounds [lower, upper) of its sample type T, every sample count:
// samples(n, keep) gives the call's value for the iterator and the samples it reads (on
// the host); the fresh and the loaded executable, each into its own histogram of 256 and
// of 2048 int32 bins, agree bitwise with each other and with the host reference.
template <class T, class Samples>
void run_histogram(std::size_t index, T lower, T upper, Samples samples) {
  SKIP_WITHOUT_GPU();
  auto per_count = [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep,
                       CUstream stream) {
    const auto [value, host] = samples(n, keep);
    ASSERT_EQ(host.size(), n);
    for (const int bins : {256, 2048}) {
      SCOPED_TRACE(std::to_string(bins) + " bins");
      const std::vector<std::int32_t> want = host_histogram<std::int32_t>(host, lower, upper, bins);
      std::vector<std::int32_t> results[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        DeviceBuffer d_hist(bins * sizeof(std::int32_t));
        std::size_t bytes = 0;
        EXPECT_EQ((*exe)(nullptr, bytes, value, nullptr, bins + 1, &lower, &upper, n, stream),
                  CUDA_SUCCESS);
        EXPECT_EQ(bytes, exe->temp_storage_bytes(n, bins + 1));
        DeviceBuffer temp(bytes);
        EXPECT_EQ(cuMemsetD8(d_hist.ptr, 0xab, bins * sizeof(std::int32_t)), CUDA_SUCCESS);
        EXPECT_EQ((*exe)(temp.get(), bytes, value, d_hist.get(), bins + 1, &lower, &upper, n,
                         stream),
                  CUDA_SUCCESS);
        EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
        results[r++] = read_device<std::int32_t>(d_hist.ptr, bins);
      }
      EXPECT_TRUE(same_bytes(results[0], results[1])) << "fresh and store-loaded differ";
      const auto [wrong, first] = mismatches(results[0], want);
      EXPECT_EQ(wrong, 0u) << "first at bin " << first;
    }
  };
  for_each_count(built(), index, kGpuCounts, per_count);
}

TEST(HistogramEvenIteratorGpu, ConsecutiveIntegersFromACountingIterator) {
  // From -5000: the first integers fall below the bounds, the last above for large n.
  run_histogram<std::int32_t>(0, -1000, 3'000'000, [](std::uint64_t n, auto&) {
    std::vector<std::int32_t> h(n);
    for (std::uint64_t i = 0; i < n; ++i) h[i] = -5000 + static_cast<std::int32_t>(i);
    return std::pair{Input(IteratorValue::counting(std::int32_t{-5000})), h};
  });
}

TEST(HistogramEvenIteratorGpu, SquaresOfAFloatArrayThroughATransformIterator) {
  run_histogram<float>(1, 0.5f, 300.25f, [](std::uint64_t n, auto& keep) {
    const auto x = random_values<float>(n, -20, 20, static_cast<std::uint32_t>(n) + 1);
    std::vector<float> h(n);
    for (std::uint64_t i = 0; i < n; ++i) h[i] = x[i] * x[i];
    return std::pair{Input(IteratorValue::transform(on_device(x, keep))), h};
  });
}

TEST(HistogramEvenIteratorGpu, AReversedByteArrayOnTheByteSamplePath) {
  run_histogram<std::uint8_t>(2, 10, 250, [](std::uint64_t n, auto& keep) {
    const auto x = random_values<std::uint8_t>(n, 0, 255, static_cast<std::uint32_t>(n) + 2);
    const std::vector<std::uint8_t> h(x.rbegin(), x.rend());
    return std::pair{Input(IteratorValue::reverse(on_device(x, keep))), h};
  });
}

TEST(HistogramEvenIteratorGpu, FloatValuesGatheredByRandomIndices) {
  // Indices with repeats into 4097 values: the counts depend on which are gathered.
  const auto values = random_values<float>(4097, -200, 200, 3);
  run_histogram<float>(3, -150.5f, 150.5f, [&](std::uint64_t n, auto& keep) {
    const auto idx = random_values<std::int64_t>(n, 0, 4096, static_cast<std::uint32_t>(n) + 4);
    std::vector<float> h(n);
    for (std::uint64_t i = 0; i < n; ++i) h[i] = values[static_cast<std::size_t>(idx[i])];
    return std::pair{Input(IteratorValue::permutation(on_device(values, keep), on_device(idx, keep))),
                     h};
  });
}

TEST(HistogramEvenIteratorGpu, AConstant) {
  run_histogram<std::int64_t>(4, -7, 1'000'000, [](std::uint64_t n, auto&) {
    return std::pair{Input(IteratorValue::constant(std::int64_t{123'457})),
                     std::vector<std::int64_t>(n, 123'457)};
  });
}

TEST(HistogramEvenIteratorGpu, AnArrayWhereTheSpecHasAnIteratorIsRefused) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const auto& fresh, const auto&, CUstream s) {
    if (i != 0) return;
    DeviceBuffer buf(4096);
    const std::int32_t lo = 0, hi = 100;
    std::size_t bytes = 4096;
    EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), 11, &lo, &hi, 100, s),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
