// select over iterators on a GPU (skips without one): the indices whose predicate holds
// from a counting input, a count alone (a discard output), a reverse input scattered by a
// permutation, and an argwhere (zip(values, counting) into {value, index} structs, and
// into the index array alone through a zip with a discard component); against host
// references on sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26, fresh (build -> bind) and
// store-loaded executables bitwise identical, the number selected with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"
#include "select_iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

using test_support::vi64;
const Operator kThird = third_index();
const ElementType kVi = vi64_type();
const Operator kPositive = positive_value();

std::vector<select::Spec> specs() {
  const Iterator argwhere = values_with_positions();
  return {
      select_of(ScalarType::int64, kThird, Iterator::counting()),                       // 0
      select_of(ScalarType::int64, kThird, Iterator::counting(), Iterator::discard()),  // 1
      select_of(ScalarType::uint32, Operator::of(OpKind::identity), Iterator::reverse(),
                Iterator::permutation(ScalarType::none, ScalarType::int32)),  // 2
      select_of(kVi, kPositive, argwhere),                                    // 3
      select_of(kVi, kPositive, argwhere,
                Iterator::zip({Iterator::discard(), Iterator::array(ScalarType::int64)})),  // 4
  };
}

const auto& built() {
  static const auto b = build_specs_for_gpu("cccl-select-iterator", specs());
  return b;
}

// For spec `index`, every count: call(exe, temp, bytes, out_array, d_count, n, keep, stream)
// by the fresh and the loaded executable, each into its own zeroed array of n O and count,
// agree bitwise (struct padding aside) with each other; want(n) gives the array's expected first items (the
// selected ones, or all n) and the number selected.
template <class O, class Call, class Want>
void run_select(std::size_t index, Call call, Want want) {
  SKIP_WITHOUT_GPU();
  auto per_count = [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep,
                       CUstream stream) {
    std::vector<O> results[2];
    std::uint64_t counts[2] = {};
    int r = 0;
    for (const auto* exe : {&fresh, &loaded}) {
      const auto array = zeroed<O>(n);
      DeviceBuffer count(sizeof(std::uint64_t));
      ASSERT_EQ(array->status, CUDA_SUCCESS);
      ASSERT_EQ(cuMemsetD8(count.ptr, 0xff, sizeof(std::uint64_t)), CUDA_SUCCESS);
      query_and_run(*exe, n, stream, [&](void* temp, std::size_t& temp_bytes) -> CUresult {
        return call(*exe, temp, temp_bytes, array->get(), count.get(), n, keep, stream);
      });
      results[r] = copy_to_host<O>(*array, n);
      clear_padding(results[r]);
      counts[r++] = copy_to_host<std::uint64_t>(count, 1)[0];
    }
    EXPECT_TRUE(same_bytes(results[0], results[1]));
    EXPECT_EQ(counts[0], counts[1]);
    auto [items, selected] = want(n);
    clear_padding(items);
    EXPECT_EQ(counts[0], selected);
    ASSERT_LE(items.size(), n);
    const auto [wrong, first] = mismatches(results[0], items);
    EXPECT_EQ(wrong, 0u) << "first at " << first;
  };
  for_each_count(built(), index, kGpuCounts, per_count);
}

// The indices i < n with i % 3 == 1 counted from `start`.
std::vector<std::int64_t> thirds(std::uint64_t n, std::int64_t start) {
  std::vector<std::int64_t> w;
  for (std::uint64_t i = 0; i < n; ++i)
    if ((start + static_cast<std::int64_t>(i)) % 3 == 1)
      w.push_back(start + static_cast<std::int64_t>(i));
  return w;
}

TEST(SelectIteratorGpu, IndicesFromACountingInput) {
  run_select<std::int64_t>(
      0,
      [](const auto& exe, void* temp, std::size_t& bytes, void* out, void* count, std::uint64_t n,
         auto&, CUstream s) {
        return exe(temp, bytes, IteratorValue::counting(std::int64_t{7}), out, count, n, s);
      },
      [](std::uint64_t n) {
        auto w = thirds(n, 7);
        return std::pair{w, std::uint64_t{w.size()}};
      });
}

TEST(SelectIteratorGpu, ACountAloneIntoADiscardOutput) {
  // Nothing is written to the array: it stays zero, the count is the number selected.
  run_select<std::int64_t>(
      1,
      [](const auto& exe, void* temp, std::size_t& bytes, void*, void* count, std::uint64_t n,
         auto&, CUstream s) {
        return exe(temp, bytes, IteratorValue::counting(std::int64_t{0}), IteratorValue::discard(),
                   count, n, s);
      },
      [](std::uint64_t n) {
        return std::pair{std::vector<std::int64_t>(n, 0), std::uint64_t{thirds(n, 0).size()}};
      });
}

TEST(SelectIteratorGpu, NonzeroItemsReadLastFirstAndScattered) {
  std::vector<std::uint32_t> h;
  std::vector<std::int32_t> perm;
  run_select<std::uint32_t>(
      2,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, void* count, std::uint64_t n,
          auto& keep, CUstream s) {
        h = random_values<std::uint32_t>(n, 0, 3, static_cast<std::uint32_t>(n) + 1);
        perm.resize(n);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937(static_cast<std::uint32_t>(n) + 2));
        return exe(temp, bytes, IteratorValue::reverse(on_device(h, keep)),
                   IteratorValue::permutation(out, on_device(perm, keep)), count, n, s);
      },
      [&](std::uint64_t n) {
        // Selected item k (in reverse order) lands at perm[k]; the rest stay zero.
        std::vector<std::uint32_t> w(n, 0);
        std::uint64_t k = 0;
        for (std::uint64_t i = n; i-- > 0;)
          if (h[i] != 0) w[static_cast<std::size_t>(perm[k++])] = h[i];
        return std::pair{w, k};
      });
}

TEST(SelectIteratorGpu, ArgwhereKeepsValuesWithTheirPositions) {
  std::vector<float> h;
  run_select<vi64>(
      3,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, void* count, std::uint64_t n,
          auto& keep, CUstream s) {
        h = random_values<float>(n, -5, 5, static_cast<std::uint32_t>(n) + 3);
        const IteratorValue parts[] = {IteratorValue::array(on_device(h, keep)),
                                       IteratorValue::counting(std::int64_t{0})};
        return exe(temp, bytes, IteratorValue::zip(parts, 2), out, count, n, s);
      },
      [&](std::uint64_t n) {
        std::vector<vi64> w;
        for (std::uint64_t i = 0; i < n; ++i)
          if (h[i] > 0) w.push_back({h[i], static_cast<long long>(i)});
        return std::pair{w, std::uint64_t{w.size()}};
      });
}

TEST(SelectIteratorGpu, ArgwherePositionsOnly) {
  std::vector<float> h;
  run_select<std::int64_t>(
      4,
      [&](const auto& exe, void* temp, std::size_t& bytes, void* out, void* count, std::uint64_t n,
          auto& keep, CUstream s) {
        h = random_values<float>(n, -5, 5, static_cast<std::uint32_t>(n) + 4);
        const IteratorValue in[] = {IteratorValue::array(on_device(h, keep)),
                                    IteratorValue::counting(std::int64_t{0})};
        const IteratorValue dst[] = {IteratorValue::discard(), IteratorValue::array(out)};
        return exe(temp, bytes, IteratorValue::zip(in, 2), IteratorValue::zip(dst, 2), count, n, s);
      },
      [&](std::uint64_t n) {
        std::vector<std::int64_t> w;
        for (std::uint64_t i = 0; i < n; ++i)
          if (h[i] > 0) w.push_back(static_cast<std::int64_t>(i));
        return std::pair{w, std::uint64_t{w.size()}};
      });
}

}  // namespace
