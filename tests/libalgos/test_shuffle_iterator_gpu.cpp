// The shuffle iterator on a GPU (skips without one): a unary transform writing it out (int64
// and negated int32 values) and a reduce summing it, against the host's shuffle_index
// (core/iterator.hpp) on sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26; every written output
// a permutation of 0..n-1; fresh (build -> bind) and store-loaded executables bitwise
// identical.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "core/iterator.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

constexpr std::uint64_t kSeed = 0x5eed'1234'abcd'0042ull;

transform::UnarySpec shuffled_into(ScalarType type, Operator op, Iterator input) {
  transform::UnarySpec s{{type}, type, std::move(op)};
  s.inputs[0] = std::move(input);
  return s;
}

std::vector<transform::UnarySpec> transform_specs() {
  return {
      // 0: out[i] = P(i) as int64
      shuffled_into(ScalarType::int64, Operator::of(OpKind::identity),
                    Iterator::shuffle(ScalarType::int64)),
      // 1: out[i] = -P(i) as int32 (V left out: the items' type)
      shuffled_into(ScalarType::int32, Operator::of(OpKind::negate), Iterator::shuffle()),
  };
}

const auto& transform_built() {
  static const auto b = build_specs_for_gpu("cccl-shuffle-transform", transform_specs());
  return b;
}

const auto& reduce_built() {
  static const auto b = build_specs_for_gpu(
      "cccl-shuffle-reduce",
      std::vector<reduce::Spec>{over<reduce::Spec>(ScalarType::int64, Iterator::shuffle())});
  return b;
}

// The host's P(0..n) for kSeed.
std::vector<std::int64_t> reference(std::uint64_t n) {
  const detail::ShuffleState s = detail::shuffle_state(n, kSeed);
  std::vector<std::int64_t> w(n);
  for (std::uint64_t i = 0; i < n; ++i) w[i] = static_cast<std::int64_t>(detail::shuffle_index(s, i));
  return w;
}

// Whether `v` holds each of 0..n-1 once.
bool is_permutation(const std::vector<std::int64_t>& v) {
  std::vector<bool> seen(v.size());
  for (const std::int64_t x : v) {
    if (x < 0 || static_cast<std::uint64_t>(x) >= v.size() || seen[static_cast<std::size_t>(x)])
      return false;
    seen[static_cast<std::size_t>(x)] = true;
  }
  return true;
}

// For transform spec `index`, every count: the fresh and loaded executables' outputs (n
// items of O) agree bitwise, with want(P(0..n)) and, mapped back by back(), form a
// permutation.
template <class O, class Want>
void run_transform(std::size_t index, Want want) {
  SKIP_WITHOUT_GPU();
  const auto& b = transform_built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  for_each_fresh_and_loaded(b, [&](std::size_t i, const auto& fresh, const auto& loaded,
                                   CUstream stream) {
    if (i != index) return;
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::vector<O> results[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        const auto out = zeroed<O>(n);
        ASSERT_EQ(out->status, CUDA_SUCCESS);
        ASSERT_EQ((*exe)(IteratorValue::shuffle(kSeed), out->get(), n, stream), CUDA_SUCCESS);
        ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
        results[r++] = copy_to_host<O>(*out, n);
      }
      EXPECT_TRUE(same_bytes(results[0], results[1]));
      const std::vector<std::int64_t> p = reference(n);
      std::vector<O> w(n);
      std::vector<std::int64_t> back(n);
      for (std::uint64_t k = 0; k < n; ++k) {
        w[k] = want(p[k]);
        back[k] = want(static_cast<std::int64_t>(results[0][k]));  // want is an involution
      }
      const auto [wrong, first] = mismatches(results[0], w);
      EXPECT_EQ(wrong, 0u) << "first at " << first;
      EXPECT_TRUE(is_permutation(back));
    }
  });
}

TEST(ShuffleIteratorGpu, WrittenOutItIsTheHostsPermutation) {
  run_transform<std::int64_t>(0, [](std::int64_t x) { return x; });
}

TEST(ShuffleIteratorGpu, NegatedAsInt32ItIsTheHostsPermutation) {
  run_transform<std::int32_t>(1, [](std::int64_t x) { return static_cast<std::int32_t>(-x); });
}

TEST(ShuffleIteratorGpu, AReduceOverItSumsZeroToNMinusOne) {
  SKIP_WITHOUT_GPU();
  const auto& b = reduce_built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  for_each_fresh_and_loaded(b, [&](std::size_t, const reduce::Executable& fresh,
                                   const reduce::Executable& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      std::int64_t sums[2] = {};
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        std::size_t bytes = 0;
        const IteratorValue in = IteratorValue::shuffle(kSeed);
        ASSERT_EQ((*exe)(nullptr, bytes, in, nullptr, n, nullptr, stream), CUDA_SUCCESS);
        DeviceBuffer out(sizeof(std::int64_t)), temp(bytes);
        const std::int64_t init = 0;
        ASSERT_EQ((*exe)(temp.get(), bytes, in, out.get(), n, &init, stream), CUDA_SUCCESS);
        ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
        sums[r++] = read_device<std::int64_t>(out.ptr, 1)[0];
      }
      EXPECT_EQ(sums[0], sums[1]);
      const auto m = static_cast<std::int64_t>(n);
      EXPECT_EQ(sums[0], m * (m - 1) / 2);
    }
  });
}

}  // namespace
