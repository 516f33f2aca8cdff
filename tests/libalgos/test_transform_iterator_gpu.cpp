// Unary and binary transform over iterators on a GPU (skips without one): a counting
// input, a reverse read scattered by a permutation, a transform iterator read and one
// written into float64, a binary transform of an array and a counting index, and a
// gather through a permutation plus a constant; against host references on sizes 0, 1,
// 2, 1023, 1025, 2^20 + 3 and 2^26, fresh (build -> bind) and store-loaded executables
// bitwise identical; an array for an iterator spec, or a value of another kind, refused.
#include <gtest/gtest.h>

#include <algorithm>
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

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const Operator kSquare = square_f();
const Operator kHalve =
    Operator::custom("halve_f", "__device__ float halve_f(float x) { return x * 0.5f; }");
// x / 2 plus the index mod 7: exact in float32 for the tests' values (x * 0.5f is exact,
// so a contraction into an fma rounds the same).
const Operator kScaleAdd = Operator::custom(
    "scale_add",
    "__device__ float scale_add(float x, long long i) { return x * 0.5f + (float)(i % 7); }");

transform::UnarySpec unary(ScalarType in, ScalarType out, Operator op, Iterator input,
                           Iterator output = {}) {
  transform::UnarySpec s{{in}, out, std::move(op)};
  s.inputs[0] = std::move(input);
  s.output = std::move(output);
  return s;
}

std::vector<transform::UnarySpec> unary_specs() {
  return {
      // 0: out[i] = -(float)(start + i)
      unary(ScalarType::float32, ScalarType::float32, Operator::of(OpKind::negate),
            Iterator::counting(ScalarType::int64)),
      // 1: out[perm[i]] = x[n - 1 - i]
      unary(ScalarType::uint32, ScalarType::uint32, Operator::of(OpKind::identity),
            Iterator::reverse(), Iterator::permutation(ScalarType::none, ScalarType::int32)),
      // 2: out[i] = (double)halve(-(x[i] * x[i]))
      unary(ScalarType::float32, ScalarType::float32, Operator::of(OpKind::negate),
            Iterator::transform(kSquare), Iterator::transform(kHalve, ScalarType::float64)),
  };
}
std::vector<transform::BinarySpec> binary_specs() {
  transform::BinarySpec indexed{
      {ScalarType::float32, ScalarType::int64}, ScalarType::float32, kScaleAdd};
  indexed.inputs[1] = Iterator::counting();  // 0: out[i] = x[i] / 2 + (start + i) % 7
  transform::BinarySpec gather{
      {ScalarType::uint32, ScalarType::uint32}, ScalarType::uint32, Operator::plus()};
  gather.inputs = {Iterator::permutation(ScalarType::none, ScalarType::int64),
                   Iterator::constant()};  // 1: out[i] = values[idx[i]] + c
  return {indexed, gather};
}

const auto& unary_built() {
  static const auto b = build_specs_for_gpu("cccl-transform-iterator-unary", unary_specs());
  return b;
}
const auto& binary_built() {
  static const auto b = build_specs_for_gpu("cccl-transform-iterator-binary", binary_specs());
  return b;
}

// n indices 0..n-1 shuffled by `seed`.
template <class I>
std::vector<I> shuffled(std::uint64_t n, std::uint32_t seed) {
  std::vector<I> p(n);
  std::iota(p.begin(), p.end(), I{0});
  std::shuffle(p.begin(), p.end(), std::mt19937(seed));
  return p;
}

// For spec `index` of `b`, every count: call(exe, out_array, n, keep, stream) by the fresh
// and the loaded executable, each into its own zeroed array of n O, agree bitwise with each
// other and with want(n).
template <class O, class Built, class Call, class Want>
void run_into(const Built& b, std::size_t index, Call call, Want want) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      b, [&](std::size_t i, const auto& fresh, const auto& loaded, CUstream stream) {
        if (i != index) return;
        for (const std::uint64_t n : kGpuCounts) {
          SCOPED_TRACE("n = " + std::to_string(n));
          std::vector<std::unique_ptr<DeviceBuffer>> keep;
          std::vector<O> results[2];
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            const auto array = zeroed<O>(n);
            ASSERT_EQ(array->status, CUDA_SUCCESS);
            ASSERT_EQ(call(*exe, array->get(), n, keep, stream), CUDA_SUCCESS);
            ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
            results[r++] = copy_to_host<O>(*array, n);
          }
          EXPECT_TRUE(same_bytes(results[0], results[1]));
          const auto [wrong, first] = mismatches(results[0], want(n));
          EXPECT_EQ(wrong, 0u) << "first at " << first;
        }
      });
}

TEST(TransformIteratorGpu, NegatedCountingInput) {
  const std::int64_t start = -(1ll << 20);
  run_into<float>(
      unary_built(), 0,
      [&](const auto& exe, void* out, std::uint64_t n, auto&, CUstream stream) {
        return exe(IteratorValue::counting(start), out, n, stream);
      },
      [&](std::uint64_t n) {
        std::vector<float> w(n);
        for (std::uint64_t i = 0; i < n; ++i)
          w[i] = -static_cast<float>(start + static_cast<std::int64_t>(i));
        return w;
      });
}

TEST(TransformIteratorGpu, ReverseReadScatteredByAPermutation) {
  std::vector<std::uint32_t> h;
  std::vector<std::int32_t> perm;
  run_into<std::uint32_t>(
      unary_built(), 1,
      [&](const auto& exe, void* out, std::uint64_t n, auto& keep, CUstream stream) {
        h = random_values<std::uint32_t>(n, 0, 1 << 30, static_cast<std::uint32_t>(n) + 1);
        perm = shuffled<std::int32_t>(n, static_cast<std::uint32_t>(n) + 2);
        return exe(IteratorValue::reverse(on_device(h, keep)),
                   IteratorValue::permutation(out, on_device(perm, keep)), n, stream);
      },
      [&](std::uint64_t n) {
        std::vector<std::uint32_t> w(n);
        for (std::uint64_t i = 0; i < n; ++i) w[static_cast<std::size_t>(perm[i])] = h[n - 1 - i];
        return w;
      });
}

TEST(TransformIteratorGpu, SquaredInputNegatedAndStoredHalvedAsFloat64) {
  std::vector<float> h;
  run_into<double>(
      unary_built(), 2,
      [&](const auto& exe, void* out, std::uint64_t n, auto& keep, CUstream stream) {
        h = random_values<float>(n, -1000, 1000, static_cast<std::uint32_t>(n) + 3);
        return exe(IteratorValue::transform(on_device(h, keep)), IteratorValue::transform(out), n,
                   stream);
      },
      [&](std::uint64_t n) {
        std::vector<double> w(n);
        for (std::uint64_t i = 0; i < n; ++i) w[i] = static_cast<double>(-(h[i] * h[i]) * 0.5f);
        return w;
      });
}

TEST(TransformIteratorGpu, BinaryOfAnArrayAndItsIndex) {
  std::vector<float> h;
  const std::int64_t start = 5;
  run_into<float>(
      binary_built(), 0,
      [&](const auto& exe, void* out, std::uint64_t n, auto& keep, CUstream stream) {
        h = random_values<float>(n, -4096, 4096, static_cast<std::uint32_t>(n) + 4);
        return exe(on_device(h, keep), IteratorValue::counting(start), out, n, stream);
      },
      [&](std::uint64_t n) {
        std::vector<float> w(n);
        for (std::uint64_t i = 0; i < n; ++i)
          w[i] = h[i] * 0.5f + static_cast<float>((start + static_cast<std::int64_t>(i)) % 7);
        return w;
      });
}

TEST(TransformIteratorGpu, GatherPlusAConstant) {
  std::vector<std::uint32_t> values;
  std::vector<std::int64_t> idx;
  const std::uint32_t c = 0xfffffff0u;  // sums wrap
  run_into<std::uint32_t>(
      binary_built(), 1,
      [&](const auto& exe, void* out, std::uint64_t n, auto& keep, CUstream stream) {
        // Fewer values than indices: a gather repeats them.
        values =
            random_values<std::uint32_t>(n / 3 + 1, 0, 1 << 30, static_cast<std::uint32_t>(n) + 5);
        std::mt19937_64 rng(n);
        idx.resize(n);
        for (auto& k : idx) k = static_cast<std::int64_t>(rng() % values.size());
        return exe(IteratorValue::permutation(on_device(values, keep), on_device(idx, keep)),
                   IteratorValue::constant(c), out, n, stream);
      },
      [&](std::uint64_t n) {
        std::vector<std::uint32_t> w(n);
        for (std::uint64_t i = 0; i < n; ++i) w[i] = values[static_cast<std::size_t>(idx[i])] + c;
        return w;
      });
}

TEST(TransformIteratorGpu, AValueOfAnotherKindIsRefusedWithoutALaunch) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(unary_built(), [&](std::size_t i, const auto& fresh, const auto&,
                                               CUstream stream) {
    if (i != 1) return;
    DeviceBuffer a(64), b(64);
    // An array where the spec reads a reverse iterator, and one where it scatters.
    EXPECT_EQ(fresh(a.get(), IteratorValue::permutation(b.get(), a.get()), 4, stream),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(fresh(IteratorValue::reverse(a.get()), b.get(), 4, stream), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(fresh(IteratorValue::counting(std::uint32_t{0}),
                    IteratorValue::permutation(b.get(), a.get()), 4, stream),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
