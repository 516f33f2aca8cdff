// three-way partition over iterators on a GPU (skips without one): a counting input split
// into an array and a reverse output with the rest discarded, a reverse input whose first
// part is scattered by a permutation, and a negated counting input (a transform iterator)
// whose second part is written through a transform output; against host references on
// sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26, fresh (build -> bind) and store-loaded
// executables bitwise identical, the two counts with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"
#include "three_way_partition_iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const Operator kBig = above_1000();
const Operator kPositive =
    Operator::custom("positive", "__device__ bool positive(double x) { return x > 0; }");

std::vector<three_way_partition::Spec> specs() {
  const auto i64 = ScalarType::int64;
  return {
      partition_of(i64, kBig, Iterator::counting(), {}, Iterator::reverse(), Iterator::discard()),
      partition_of(ScalarType::float64, kPositive, Iterator::reverse(),
                   Iterator::permutation(ScalarType::none, ScalarType::int32)),
      partition_of(i64, kBig, Iterator::transform(Operator::of(OpKind::negate), i64, true), {},
                   Iterator::transform(Operator::of(OpKind::negate))),
  };
}

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-three-way-partition-iterator", specs());
  return b;
}

// What a spec's call should leave: each of the three output arrays (n items, zero where
// nothing is written) and the two counts.
template <class O>
struct Parts {
  std::array<std::vector<O>, 3> arrays;
  std::uint64_t counts[2] = {};
};

// For spec `index`, every count: call(exe, temp, bytes, outs, d_counts, n, keep, stream) by
// the fresh and the loaded executable, each into its own three zeroed arrays of n O and
// counts, agree bitwise with each other and with want(n).
template <class O, class Call, class Want>
void run_partition(std::size_t index, Call call, Want want) {
  SKIP_WITHOUT_GPU();
  auto per_count = [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep,
                       CUstream stream) {
    Parts<O> got[2];
    int r = 0;
    for (const auto* exe : {&fresh, &loaded}) {
      std::unique_ptr<DeviceBuffer> arrays[3] = {zeroed<O>(n), zeroed<O>(n), zeroed<O>(n)};
      void* outs[3] = {arrays[0]->get(), arrays[1]->get(), arrays[2]->get()};
      DeviceBuffer counts(2 * sizeof(std::uint64_t));
      ASSERT_EQ(cuMemsetD8(counts.ptr, 0xff, 2 * sizeof(std::uint64_t)), CUDA_SUCCESS);
      query_and_run(*exe, n, stream, [&](void* temp, std::size_t& temp_bytes) -> CUresult {
        return call(*exe, temp, temp_bytes, outs, counts.get(), n, keep, stream);
      });
      for (int k = 0; k < 3; ++k) got[r].arrays[k] = copy_to_host<O>(*arrays[k], n);
      const auto c = copy_to_host<std::uint64_t>(counts, 2);
      got[r].counts[0] = c[0];
      got[r++].counts[1] = c[1];
    }
    const Parts<O> w = want(n);
    for (int k = 0; k < 3; ++k) {
      SCOPED_TRACE("output " + std::to_string(k));
      EXPECT_TRUE(same_bytes(got[0].arrays[k], got[1].arrays[k]));
      const auto [wrong, first] = mismatches(got[0].arrays[k], w.arrays[k]);
      EXPECT_EQ(wrong, 0u) << "first at " << first;
    }
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(got[0].counts[k], got[1].counts[k]);
      EXPECT_EQ(got[0].counts[k], w.counts[k]) << "count " << k;
    }
  };
  for_each_count(built(), index, kGpuCounts, per_count);
}

// Empty parts of n items each.
template <class O>
Parts<O> zeros(std::uint64_t n) {
  Parts<O> p;
  for (auto& a : p.arrays) a.assign(n, O{});
  return p;
}

TEST(ThreeWayPartitionIteratorGpu, ACountingInputIntoAnArrayAndAReverseOutputTheRestDiscarded) {
  // -n/2 .. n/2: above 1000 first, the other nonzero ones second (last first), 0 discarded.
  auto start = [](std::uint64_t n) { return -static_cast<std::int64_t>(n / 2); };
  run_partition<std::int64_t>(
      0,
      [&](const auto& exe, void* temp, std::size_t& bytes, void** outs, void* counts,
          std::uint64_t n, auto&, CUstream s) {
        return exe(temp, bytes, IteratorValue::counting(start(n)), outs[0],
                   IteratorValue::reverse(outs[1]), IteratorValue::discard(), counts, n, s);
      },
      [&](std::uint64_t n) {
        auto w = zeros<std::int64_t>(n);
        for (std::uint64_t i = 0; i < n; ++i) {
          const std::int64_t x = start(n) + static_cast<std::int64_t>(i);
          if (x > 1000) w.arrays[0][w.counts[0]++] = x;
          else if (x != 0) w.arrays[1][n - 1 - w.counts[1]++] = x;
        }
        return w;
      });
}

TEST(ThreeWayPartitionIteratorGpu, AReverseInputItsFirstPartScattered) {
  std::vector<double> h;
  std::vector<std::int32_t> perm;
  run_partition<double>(
      1,
      [&](const auto& exe, void* temp, std::size_t& bytes, void** outs, void* counts,
          std::uint64_t n, auto& keep, CUstream s) {
        h = random_values<double>(n, -2, 2, static_cast<std::uint32_t>(n) + 5);
        perm.resize(n);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937(static_cast<std::uint32_t>(n) + 6));
        return exe(temp, bytes, IteratorValue::reverse(on_device(h, keep)),
                   IteratorValue::permutation(outs[0], on_device(perm, keep)), outs[1], outs[2],
                   counts, n, s);
      },
      [&](std::uint64_t n) {
        // Positive items (read last first) land at perm[k], the negative ones in order, the
        // zeros after them.
        auto w = zeros<double>(n);
        std::uint64_t rest = 0;
        for (std::uint64_t i = n; i-- > 0;) {
          const double x = h[i];
          if (x > 0) w.arrays[0][static_cast<std::size_t>(perm[w.counts[0]++])] = x;
          else if (x != 0) w.arrays[1][w.counts[1]++] = x;
          else w.arrays[2][rest++] = x;
        }
        return w;
      });
}

TEST(ThreeWayPartitionIteratorGpu, ANegatedCountingInputItsSecondPartNegatedBack) {
  // Items -(s + i) from s = -n/2; the second part (the other nonzero ones) is stored negated.
  auto start = [](std::uint64_t n) { return -static_cast<std::int64_t>(n / 2); };
  run_partition<std::int64_t>(
      2,
      [&](const auto& exe, void* temp, std::size_t& bytes, void** outs, void* counts,
          std::uint64_t n, auto&, CUstream s) {
        return exe(temp, bytes, IteratorValue::of(IteratorKind::transform, start(n)), outs[0],
                   IteratorValue::transform(outs[1]), outs[2], counts, n, s);
      },
      [&](std::uint64_t n) {
        auto w = zeros<std::int64_t>(n);
        std::uint64_t rest = 0;
        for (std::uint64_t i = 0; i < n; ++i) {
          const std::int64_t x = -(start(n) + static_cast<std::int64_t>(i));
          if (x > 1000) w.arrays[0][w.counts[0]++] = x;
          else if (x != 0) w.arrays[1][w.counts[1]++] = -x;
          else w.arrays[2][rest++] = x;
        }
        return w;
      });
}

}  // namespace
