// Output iterators on a GPU (skips without one): scans written last first (reverse),
// scattered (permutation), stored through an operator into another type (transform) and
// dropped (discard), and reductions stored through an operator (a norm: the square root
// of a sum of squares read through a transform iterator) and dropped; against host
// references on sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26, fresh (build -> bind) and
// store-loaded executables bitwise identical; an output value of another kind, or an
// array for an iterator spec, is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
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
const Operator kRoot = Operator::custom("root_f", "__device__ float root_f(float x) { return sqrtf(x); }");
const Operator kHalve = Operator::custom("halve_f", "__device__ float halve_f(float x) { return x * 0.5f; }");

template <class Spec>
Spec into(ScalarType type, Iterator output, Iterator input = {}, bool init = false) {
  Spec s = over<Spec>(type, std::move(input), init);
  s.output = std::move(output);
  return s;
}

// The specs, in the order of the tests below.
std::vector<scan::InclusiveSpec> inclusive_specs() {
  return {
      into<scan::InclusiveSpec>(ScalarType::uint32, Iterator::reverse()),                      // 0
      into<scan::InclusiveSpec>(ScalarType::float32, Iterator::transform(kHalve, ScalarType::float64)),  // 1
      into<scan::InclusiveSpec>(ScalarType::uint64,
                                Iterator::permutation(ScalarType::none, ScalarType::int32), {}, true),  // 2
      into<scan::InclusiveSpec>(ScalarType::int64, Iterator::discard(),
                                Iterator::counting(ScalarType::int64)),  // 3
  };
}
std::vector<scan::ExclusiveSpec> exclusive_specs() {
  return {
      into<scan::ExclusiveSpec>(ScalarType::uint32,
                                Iterator::transform(Operator::of(OpKind::bit_not), ScalarType::uint64)),  // 0
  };
}
std::vector<reduce::Spec> reduce_specs() {
  return {
      into<reduce::Spec>(ScalarType::float32, Iterator::transform(kRoot, ScalarType::float64),
                         Iterator::transform(kSquare)),  // 0: a norm
      into<reduce::Spec>(ScalarType::int32, Iterator::discard()),  // 1
  };
}

const auto& inclusive_built() {
  static const auto b = build_specs_for_gpu("cccl-output-iterator-inclusive", inclusive_specs());
  return b;
}
const auto& exclusive_built() {
  static const auto b = build_specs_for_gpu("cccl-output-iterator-exclusive", exclusive_specs());
  return b;
}
const auto& reduce_built() {
  static const auto b = build_specs_for_gpu("cccl-output-iterator-reduce", reduce_specs());
  return b;
}

// The scan of `in` (n items) by `exe` into the output `out` (the spec's output kind), seeded
// with `init` where the spec takes one.
template <class T, class Exe>
void scan_into(const Exe& exe, const Input& in, const Output& out, std::uint64_t n, T init,
               CUstream stream) {
  query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) -> CUresult {
    if constexpr (std::is_same_v<Exe, scan::InclusiveExecutable>) {
      if (!exe.spec().init) return exe(temp, bytes, in, out, n, stream);
    }
    return exe(temp, bytes, in, out, n, &init, stream);
  });
}

// For spec `index` of `b`, every count: the scan of random input values (input(n)) by the
// fresh and the loaded executable, each into its own zeroed output array of O (read back
// whole: `out_items(n)` items) through output(array, n), agree bitwise with each other and
// with want(input values).
template <class T, class O, class Built, class MakeOutput, class Want>
void run_scan_into(const Built& b, std::size_t index, T init, std::uint32_t seed,
                   MakeOutput output, Want want) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(b, [&](std::size_t i, const auto& fresh, const auto& loaded, CUstream stream) {
    if (i != index) return;
    for (const std::uint64_t n : kCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      // Small integers: float sums stay exact in any association order (below 2^24 at
      // 2^26 items with every 64th value nonzero).
      std::vector<T> h = random_values<T>(n, 0, 3, seed + static_cast<std::uint32_t>(n));
      if (n > (1u << 21))
        for (std::uint64_t k = 0; k < n; ++k)
          if (k % 64 != 0) h[k] = T{};
      const void* d_in = on_device(h, keep);
      std::vector<O> results[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        DeviceBuffer array(std::max<std::uint64_t>(n, 1) * sizeof(O));
        ASSERT_EQ(cuMemsetD8(array.ptr, 0, std::max<std::uint64_t>(n, 1) * sizeof(O)), CUDA_SUCCESS);
        std::vector<std::unique_ptr<DeviceBuffer>> out_keep;
        scan_into<T>(*exe, d_in, output(array.get(), n, out_keep), n, init, stream);
        results[r++] = copy_to_host<O>(array, n);
      }
      EXPECT_TRUE(n == 0 || std::memcmp(results[0].data(), results[1].data(), n * sizeof(O)) == 0);
      const std::vector<O> w = want(h);
      std::uint64_t wrong = 0, first = n;
      for (std::uint64_t k = 0; k < n; ++k)
        if (results[0][k] != w[k] && wrong++ == 0) first = k;
      EXPECT_EQ(wrong, 0u) << "first at " << first << ": " << results[0][first] << " vs " << w[first];
    }
  });
}

// The running sums of h (inclusive, or exclusive from init) in T.
template <class T>
std::vector<T> running(const std::vector<T>& h, T init, bool exclusive) {
  std::vector<T> out(h.size());
  T acc = init;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (exclusive) out[i] = acc;
    acc = static_cast<T>(acc + h[i]);
    if (!exclusive) out[i] = acc;
  }
  return out;
}

TEST(OutputIteratorGpu, InclusiveScanWrittenLastFirst) {
  run_scan_into<std::uint32_t, std::uint32_t>(
      inclusive_built(), 0, 0u, 1,
      [](void* array, std::uint64_t, auto&) { return IteratorValue::reverse(array); },
      [](const std::vector<std::uint32_t>& h) {
        auto sums = running<std::uint32_t>(h, 0u, false);
        std::reverse(sums.begin(), sums.end());
        return sums;
      });
}

TEST(OutputIteratorGpu, InclusiveScanStoredHalvedAsFloat64) {
  run_scan_into<float, double>(
      inclusive_built(), 1, 0.0f, 3,
      [](void* array, std::uint64_t, auto&) { return IteratorValue::transform(array); },
      [](const std::vector<float>& h) {
        const auto sums = running<float>(h, 0.0f, false);
        std::vector<double> out(sums.size());
        for (std::size_t i = 0; i < sums.size(); ++i) out[i] = static_cast<double>(sums[i] * 0.5f);
        return out;
      });
}

TEST(OutputIteratorGpu, SeededInclusiveScanScatteredByAPermutation) {
  std::vector<std::int32_t> perm;
  const std::uint64_t init = 1ull << 40;
  run_scan_into<std::uint64_t, std::uint64_t>(
      inclusive_built(), 2, init, 5,
      [&](void* array, std::uint64_t n, auto& keep) {
        perm.resize(n);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937(static_cast<std::uint32_t>(n)));
        return IteratorValue::permutation(array, on_device(perm, keep));
      },
      [&](const std::vector<std::uint64_t>& h) {
        const auto sums = running<std::uint64_t>(h, init, false);
        std::vector<std::uint64_t> out(sums.size());
        for (std::size_t i = 0; i < sums.size(); ++i) out[static_cast<std::size_t>(perm[i])] = sums[i];
        return out;
      });
}

TEST(OutputIteratorGpu, ExclusiveScanStoredComplementedAsUint64) {
  const std::uint32_t init = 0xfffffff0u;  // the sums wrap in uint32 before the store
  run_scan_into<std::uint32_t, std::uint64_t>(
      exclusive_built(), 0, init, 7,
      [](void* array, std::uint64_t, auto&) { return IteratorValue::transform(array); },
      [&](const std::vector<std::uint32_t>& h) {
        const auto sums = running<std::uint32_t>(h, init, true);
        std::vector<std::uint64_t> out(sums.size());
        for (std::size_t i = 0; i < sums.size(); ++i) out[i] = static_cast<std::uint64_t>(~sums[i]);
        return out;
      });
}

// A scan into a discard iterator (a counting input: no memory at all) runs at every size.
TEST(OutputIteratorGpu, ScanIntoDiscardRuns) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(inclusive_built(), [](std::size_t i, const scan::InclusiveExecutable& fresh,
                                                  const scan::InclusiveExecutable& loaded, CUstream stream) {
    if (i != 3) return;
    for (const std::uint64_t n : kCounts)
      for (const auto* exe : {&fresh, &loaded}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        scan_into<std::int64_t>(*exe, IteratorValue::counting(std::int64_t{-5}), IteratorValue::discard(),
                                n, 0, stream);
      }
  });
}

// reduce(0, in) by `exe` into `out` (the spec's output kind).
void reduce_into(const reduce::Executable& exe, const Input& in, const Output& out, std::uint64_t n,
                 const void* h_init, CUstream stream) {
  query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
    return exe(temp, bytes, in, out, n, h_init, stream);
  });
}

TEST(OutputIteratorGpu, NormIsAReduceFromATransformIntoATransform) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(reduce_built(), [](std::size_t i, const reduce::Executable& fresh,
                                               const reduce::Executable& loaded, CUstream stream) {
    if (i != 0) return;
    for (const std::uint64_t n : kCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      std::vector<float> h = random_values<float>(n, -3, 3, 11 + static_cast<std::uint32_t>(n));
      if (n > (1u << 21))
        for (std::uint64_t k = 0; k < n; ++k)
          if (k % 64 != 0) h[k] = 0.0f;
      const void* d_in = on_device(h, keep);
      const float zero = 0.0f;
      double got[2] = {-1.0, -1.0};
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        DeviceBuffer out(sizeof(double));
        reduce_into(*exe, IteratorValue::transform(d_in), IteratorValue::transform(out.get()), n, &zero,
                    stream);
        got[r++] = copy_to_host<double>(out, 1)[0];
      }
      float sum = 0.0f;
      for (float x : h) sum += x * x;  // exact: small integers
      EXPECT_EQ(std::memcmp(&got[0], &got[1], sizeof(double)), 0);
      EXPECT_EQ(got[0], static_cast<double>(std::sqrt(sum)));
    }
  });
}

TEST(OutputIteratorGpu, ReduceIntoDiscardRuns) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(reduce_built(), [](std::size_t i, const reduce::Executable& fresh,
                                               const reduce::Executable& loaded, CUstream stream) {
    if (i != 1) return;
    for (const std::uint64_t n : kCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_in = on_device(random_values<std::int32_t>(n, -9, 9, 3), keep);
      const std::int32_t zero = 0;
      for (const auto* exe : {&fresh, &loaded})
        reduce_into(*exe, d_in, IteratorValue::discard(), n, &zero, stream);
    }
  });
}

TEST(OutputIteratorGpu, AnOutputOfAnotherKindOrAnArrayIsRefused) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(inclusive_built(), [](std::size_t i, const scan::InclusiveExecutable& fresh,
                                                  const scan::InclusiveExecutable&, CUstream stream) {
    if (i != 0) return;  // reverse
    DeviceBuffer in(64), out(64), temp(1 << 20);
    std::size_t bytes = 1 << 20;
    EXPECT_EQ(fresh(temp.get(), bytes, in.get(), out.get(), 4, stream), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(fresh(temp.get(), bytes, in.get(), IteratorValue::discard(), 4, stream),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(fresh(temp.get(), bytes, in.get(), IteratorValue::reverse(out.get()), 4, stream), CUDA_SUCCESS);
    EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  });
}

}  // namespace
