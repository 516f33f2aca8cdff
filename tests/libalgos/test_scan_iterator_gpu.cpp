// Iterators as scan inputs on a GPU (skips without one): a running sum of squares as an
// inclusive scan over a transform iterator, and counting, constant, reverse, permutation
// and transform-over-counting inputs to inclusive (unseeded and seeded) and exclusive
// scans, against host references on sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26; fresh
// (build -> bind) and store-loaded executables give bitwise identical outputs, and so does
// the loaded one given the initial value in device memory; a call whose iterator value is
// not of the spec's kind, or an array for an iterator spec, is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"
#include "scan_gpu_support.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const auto& kCounts = kGpuCounts;

const Operator kSquare = square_f();

// The specs, in the order of the tests below.
std::vector<scan::InclusiveSpec> inclusive_specs() {
  return {
      over<scan::InclusiveSpec>(ScalarType::float32, Iterator::transform(kSquare)),  // 0
      over<scan::InclusiveSpec>(ScalarType::uint32, Iterator::constant()),           // 1
      over<scan::InclusiveSpec>(ScalarType::uint32, Iterator::reverse(), true),      // 2
      over<scan::InclusiveSpec>(
          ScalarType::int64,
          Iterator::transform(Operator::of(OpKind::negate), ScalarType::int64, true)),  // 3
  };
}
std::vector<scan::ExclusiveSpec> exclusive_specs() {
  return {
      over<scan::ExclusiveSpec>(ScalarType::int64, Iterator::counting(ScalarType::int32)),  // 0
      over<scan::ExclusiveSpec>(ScalarType::uint64,
                                     Iterator::permutation(ScalarType::uint32, ScalarType::int32)),  // 1
  };
}

const auto& inclusive_built() {
  static const auto b = build_specs_for_gpu("cccl-scan-iterator-inclusive", inclusive_specs());
  return b;
}
const auto& exclusive_built() {
  static const auto b = build_specs_for_gpu("cccl-scan-iterator-exclusive", exclusive_specs());
  return b;
}

using Init = ScanInit;

// The host reference: out[i] = init + in[0] + ... + in[i] (inclusive) or + in[i - 1]
// (exclusive), in T's arithmetic.
template <class T, class Value>
std::vector<T> host_scan(std::uint64_t n, Value value, T init, bool exclusive) {
  std::vector<T> out(n);
  T acc = init;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (exclusive) out[i] = acc;
    acc = static_cast<T>(acc + static_cast<T>(value(i)));
    if (!exclusive) out[i] = acc;
  }
  return out;
}

// For spec `index` of `b`: for every count, the device input made by input(n, keep) scanned
// by the fresh executable and by the loaded one (with the initial value on the host, and
// again in device memory where the spec takes one) agree bitwise with each other and with
// want(n).
template <class T, class Built, class Input, class Want>
void run_spec(const Built& b, std::size_t index, Init how, T init, Input input, Want want) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(b, [&](std::size_t i, const auto& fresh, const auto& loaded,
                                   CUstream stream) {
    if (i != index) return;
    for (const std::uint64_t n : kCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const IteratorValue in = input(n, keep);
      const auto a = scan_on<T>(fresh, in, n, init, how, stream);
      const auto c = scan_on<T>(loaded, in, n, init, how, stream);
      ASSERT_EQ(a.size(), n);
      EXPECT_TRUE(n == 0 || std::memcmp(a.data(), c.data(), n * sizeof(T)) == 0);
      if (how == Init::host) {
        const auto d = scan_on<T>(loaded, in, n, init, Init::device, stream);
        EXPECT_TRUE(n == 0 || std::memcmp(a.data(), d.data(), n * sizeof(T)) == 0);
      }
      const std::vector<T> w = want(n);
      std::uint64_t wrong = 0, first = n;
      for (std::uint64_t k = 0; k < n; ++k)
        if (a[k] != w[k] && wrong++ == 0) first = k;
      EXPECT_EQ(wrong, 0u) << "first at " << first << ": " << a[first] << " vs " << w[first];
    }
  });
}

TEST(ScanIteratorGpu, RunningSumOfSquaresIsAnInclusiveScanOverATransformIterator) {
  // Small integers, at 2^26 items only every 64th nonzero: every partial sum is below
  // 2^24, exact in float in any association order.
  std::vector<float> h;
  run_spec<float>(
      inclusive_built(), 0, Init::none, 0.0f,
      [&](std::uint64_t n, auto& keep) {
        h = random_values<float>(n, -3, 3, 1 + static_cast<std::uint32_t>(n));
        if (n > (1u << 21))
          for (std::uint64_t i = 0; i < n; ++i)
            if (i % 64 != 0) h[i] = 0.0f;
        return IteratorValue::transform(on_device(h, keep));
      },
      [&](std::uint64_t n) {
        return host_scan<float>(n, [&](std::uint64_t i) { return h[i] * h[i]; }, 0.0f, false);
      });
}

TEST(ScanIteratorGpu, ConstantInputScansToMultiplesOfTheValue) {
  const std::uint32_t value = 0x9e3779b9u;
  run_spec<std::uint32_t>(
      inclusive_built(), 1, Init::none, 0u,
      [&](std::uint64_t, auto&) { return IteratorValue::constant(value); },
      [&](std::uint64_t n) {
        return host_scan<std::uint32_t>(n, [&](std::uint64_t) { return value; }, 0u, false);
      });
}

TEST(ScanIteratorGpu, SeededInclusiveScanOfAReversedArray) {
  std::vector<std::uint32_t> h;
  const std::uint32_t init = 123456789u;
  run_spec<std::uint32_t>(
      inclusive_built(), 2, Init::host, init,
      [&](std::uint64_t n, auto& keep) {
        h = random_values<std::uint32_t>(n, 0, 1 << 30, 5 + static_cast<std::uint32_t>(n));
        return IteratorValue::reverse(on_device(h, keep));
      },
      [&](std::uint64_t n) {
        return host_scan<std::uint32_t>(n, [&](std::uint64_t i) { return h[n - 1 - i]; }, init, false);
      });
}

TEST(ScanIteratorGpu, TransformOverCountingNegates) {
  const std::int64_t start = 1ll << 40;
  run_spec<std::int64_t>(
      inclusive_built(), 3, Init::none, 0,
      [&](std::uint64_t, auto&) { return IteratorValue::of(IteratorKind::transform, start); },
      [&](std::uint64_t n) {
        return host_scan<std::int64_t>(
            n, [&](std::uint64_t i) { return -(start + std::int64_t(i)); }, 0, false);
      });
}

TEST(ScanIteratorGpu, ExclusiveScanOfACountingIterator) {
  const std::int32_t start = -700;
  const std::int64_t init = 5;
  run_spec<std::int64_t>(
      exclusive_built(), 0, Init::host, init,
      [&](std::uint64_t, auto&) { return IteratorValue::counting(start); },
      [&](std::uint64_t n) {
        return host_scan<std::int64_t>(
            n, [&](std::uint64_t i) { return std::int64_t(start) + std::int64_t(i); }, init, true);
      });
}

TEST(ScanIteratorGpu, ExclusiveScanOfAPermutationGathersByIndex) {
  std::vector<std::uint32_t> values;
  std::vector<std::int32_t> index;
  const std::uint64_t init = 1ull << 40;
  run_spec<std::uint64_t>(
      exclusive_built(), 1, Init::host, init,
      [&](std::uint64_t n, auto& keep) {
        values = random_values<std::uint32_t>(1000, 0, 1 << 30, 11);
        index = random_values<std::int32_t>(n, 0, 999, 13 + static_cast<std::uint32_t>(n));
        return IteratorValue::permutation(on_device(values, keep), on_device(index, keep));
      },
      [&](std::uint64_t n) {
        return host_scan<std::uint64_t>(
            n, [&](std::uint64_t i) { return values[static_cast<std::size_t>(index[i])]; }, init, true);
      });
}

TEST(ScanIteratorGpu, AValueOfAnotherKindOrAnArrayIsRefused) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(exclusive_built(), [](std::size_t i, const scan::ExclusiveExecutable& fresh,
                                                  const scan::ExclusiveExecutable&, CUstream stream) {
    if (i != 0) return;  // counting
    DeviceBuffer out(64), temp(1 << 20), array(64);
    std::size_t bytes = 1 << 20;
    const std::int64_t init = 0;
    EXPECT_EQ(fresh(temp.get(), bytes, IteratorValue::constant(1), out.get(), 4, &init, stream),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(fresh(temp.get(), bytes, array.get(), out.get(), 4, &init, stream),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
