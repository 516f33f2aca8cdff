// Stateful custom operators on a GPU (skips without one): reduce, unary and binary
// transform, select and merge sort with an operator whose state is a call argument,
// against host references; two states on one executable give the two results; fresh
// (build -> bind) and store-loaded executables agree; a state that does not fit the
// layout is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "op_state_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

// Host data of `n` values in [0, bound).
std::vector<std::uint32_t> random_values(std::size_t n, std::uint32_t bound, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = rng() % bound;
  return v;
}

template <class T>
void upload(const DeviceBuffer& d, const std::vector<T>& h) {
  if (!h.empty()) ASSERT_CU(cuMemcpyHtoD(d.ptr, h.data(), h.size() * sizeof(T)));
}
template <class T>
std::vector<T> download(const DeviceBuffer& d, std::size_t n) {
  std::vector<T> h(n);
  if (n > 0) EXPECT_EQ(cuMemcpyDtoH(h.data(), d.ptr, n * sizeof(T)), CUDA_SUCCESS);
  return h;
}

// The store of `Make()`'s fresh build, built once per process.
template <auto Make>
const auto& built() {
  using Spec = decltype(Make());
  static const auto b = build_specs_for_gpu(
      "cccl-opstate-" + std::string(algorithm_name(Spec::kAlgorithm)), std::vector{Make()});
  return b;
}

const std::size_t kCounts[] = {0, 1, 1000, (1u << 20) + 7};

// --- reduce: (a + b) % m, m the state ---

std::uint32_t reduce_on(const reduce::Executable& exe, const std::vector<std::uint32_t>& items,
                        std::uint32_t m, CUstream stream) {
  std::size_t bytes = 0;
  EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, items.size(), nullptr, stream), CUDA_SUCCESS);
  DeviceBuffer in(items.size() * 4), out(4), temp(bytes);
  upload(in, items);
  const std::uint32_t init = 0;
  EXPECT_EQ(
      exe(temp.get(), bytes, in.get(), out.get(), items.size(), &init, stream, {&m, sizeof m}),
      CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  return download<std::uint32_t>(out, 1)[0];
}

TEST(OpStateGpu, ReduceWithStateMatchesTheHostForEachStateFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built<&reduce_plus_mod>(), [](std::size_t, const reduce::Executable& fresh,
                                    const reduce::Executable& loaded, CUstream stream) {
        for (const std::size_t n : kCounts) {
          const auto items = random_values(n, 1000, 7 + static_cast<std::uint32_t>(n));
          for (const std::uint32_t m : {1000003u, 97u}) {  // the state changes between calls
            SCOPED_TRACE("n = " + std::to_string(n) + ", m = " + std::to_string(m));
            std::uint32_t want = 0;
            for (const auto x : items) want = (want + x) % m;
            const std::uint32_t got = reduce_on(fresh, items, m, stream);
            EXPECT_EQ(got, want);
            EXPECT_EQ(reduce_on(loaded, items, m, stream), got) << "fresh and store-loaded differ";
          }
        }
        // A state that does not fit the layout is refused before any launch.
        std::size_t bytes = fresh.temp_storage_bytes(1000);
        DeviceBuffer buf(1 << 16);
        const std::uint32_t init = 0;
        const std::uint64_t wide = 5;
        EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), 1000, &init, stream, {&wide, 8}),
                  CUDA_ERROR_INVALID_VALUE);
        EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), 1000, &init, stream),
                  CUDA_ERROR_INVALID_VALUE);
      });
}

// --- transforms: x * k[0] + k[1] (int32, 8/4) and w[0] * a + w[1] * b (int32 -> int64, 16/16) ---

TEST(OpStateGpu, UnaryTransformWithStateMatchesTheHostForEachState) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&unary_affine>(), [](std::size_t,
                                                       const transform::Executable<1>& fresh,
                                                       const transform::Executable<1>& loaded,
                                                       CUstream stream) {
    for (const std::size_t n : kCounts) {
      const auto raw = random_values(n, 1u << 16, 11);
      const std::vector<std::int32_t> in(raw.begin(), raw.end());
      DeviceBuffer d_in(n * 4), d_out(n * 4);
      upload(d_in, in);
      for (const auto& k :
           {std::array<std::int32_t, 2>{3, -7}, std::array<std::int32_t, 2>{-2, 5}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", k = " + std::to_string(k[0]));
        std::vector<std::int32_t> want(n);
        for (std::size_t i = 0; i < n; ++i) want[i] = in[i] * k[0] + k[1];
        ASSERT_EQ(fresh(d_in.get(), d_out.get(), n, stream, {k.data(), 8}), CUDA_SUCCESS);
        ASSERT_CU(cuStreamSynchronize(stream));
        EXPECT_EQ(download<std::int32_t>(d_out, n), want);
        ASSERT_EQ(loaded(d_in.get(), d_out.get(), n, stream, {k.data(), 8}), CUDA_SUCCESS);
        ASSERT_CU(cuStreamSynchronize(stream));
        EXPECT_EQ(download<std::int32_t>(d_out, n), want) << "store-loaded";
      }
    }
    const std::int32_t short_state = 1;
    DeviceBuffer buf(64);
    EXPECT_EQ(fresh(buf.get(), buf.get(), 4, stream, {&short_state, 4}), CUDA_ERROR_INVALID_VALUE);
  });
}

TEST(OpStateGpu, BinaryTransformWithAlignedStateMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built<&binary_weighted>(), [](std::size_t, const transform::Executable<2>& fresh,
                                    const transform::Executable<2>& loaded, CUstream stream) {
        const std::size_t n = (1u << 20) + 3;
        const auto ra = random_values(n, 1u << 20, 1), rb = random_values(n, 1u << 20, 2);
        const std::vector<std::int32_t> a(ra.begin(), ra.end()), b(rb.begin(), rb.end());
        DeviceBuffer d_a(n * 4), d_b(n * 4), d_out(n * 8);
        upload(d_a, a);
        upload(d_b, b);
        for (const auto* exe : {&fresh, &loaded}) {
          for (const std::int64_t w0 : {std::int64_t{1} << 33, std::int64_t{-3}}) {
            alignas(16) const std::int64_t w[2] = {w0, 5};
            ASSERT_EQ((*exe)(d_a.get(), d_b.get(), d_out.get(), n, stream, {w, 16}), CUDA_SUCCESS);
            ASSERT_CU(cuStreamSynchronize(stream));
            const auto got = download<std::int64_t>(d_out, n);
            for (std::size_t i = 0; i < n; i += 4099)
              ASSERT_EQ(got[i], w[0] * a[i] + w[1] * b[i]) << i;
          }
        }
      });
}

// --- select: x > t, t the state ---

TEST(OpStateGpu, SelectWithStateMatchesTheHostForEachState) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&select_above>(), [](std::size_t, const select::Executable& fresh,
                                                       const select::Executable& loaded,
                                                       CUstream stream) {
    for (const std::size_t n : kCounts) {
      const auto raw = random_values(n, 1000, 5);
      const std::vector<std::int32_t> in(raw.begin(), raw.end());
      DeviceBuffer d_in(n * 4), d_out(n * 4), d_count(8);
      upload(d_in, in);
      for (const std::int32_t t : {500, 900}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", t = " + std::to_string(t));
        std::vector<std::int32_t> want;
        std::copy_if(in.begin(), in.end(), std::back_inserter(want),
                     [&](std::int32_t x) { return x > t; });
        for (const auto* exe : {&fresh, &loaded}) {
          std::size_t bytes = 0;
          ASSERT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, n, stream), CUDA_SUCCESS);
          DeviceBuffer temp(bytes);
          ASSERT_EQ(
              (*exe)(temp.get(), bytes, d_in.get(), d_out.get(), d_count.get(), n, stream, {&t, 4}),
              CUDA_SUCCESS);
          ASSERT_CU(cuStreamSynchronize(stream));
          ASSERT_EQ(download<std::uint64_t>(d_count, 1)[0], want.size());
          EXPECT_EQ(download<std::int32_t>(d_out, want.size()), want);
        }
      }
    }
  });
}

// --- merge sort: by key % m, m the state (stable: the values keep their order) ---

TEST(OpStateGpu, MergeSortWithAStatefulComparatorMatchesAStableHostSort) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built<&sort_less_mod>(), [](std::size_t, const merge_sort::Executable& fresh,
                                  const merge_sort::Executable& loaded, CUstream stream) {
        for (const std::size_t n : kCounts) {
          const auto keys = random_values(n, 1u << 30, 3);
          std::vector<std::uint32_t> values(n);
          std::iota(values.begin(), values.end(), 0u);
          for (const std::uint32_t m : {10u, 1000u}) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", m = " + std::to_string(m));
            std::vector<std::uint32_t> order = values;
            std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
              return keys[a] % m < keys[b] % m;
            });
            for (const auto* exe : {&fresh, &loaded}) {
              DeviceBuffer d_keys(n * 4), d_values(n * 4);
              upload(d_keys, keys);
              upload(d_values, values);
              std::size_t bytes = 0;
              ASSERT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, stream),
                        CUDA_SUCCESS);
              DeviceBuffer temp(bytes);
              ASSERT_EQ((*exe)(temp.get(), bytes, d_keys.get(), d_values.get(), d_keys.get(),
                               d_values.get(), n, stream, {&m, 4}),
                        CUDA_SUCCESS);
              ASSERT_CU(cuStreamSynchronize(stream));
              EXPECT_EQ(download<std::uint32_t>(d_values, n), order);
            }
          }
        }
      });
}

}  // namespace
