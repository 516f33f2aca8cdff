// What the closed-form temp-storage tests share: the item counts to compare CUB's
// dispatch and the closed form at, and the comparison. Header-only.
#pragma once

#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

namespace test_support {

// 0, 1, 2; each boundary in `edges` and its neighbours (+-1); the powers of two up to 2^33
// and their neighbours; UINT32_MAX +- 1, 2^40 + 3; 40 random counts (fixed seed) spread
// over 2^0 .. 2^34. Sorted, without repeats; the caller skips what its offset cannot hold.
inline std::vector<std::uint64_t> item_counts(std::initializer_list<std::uint64_t> edges) {
  std::vector<std::uint64_t> v = {0, 1, 2, 3};
  const auto around = [&](std::uint64_t e) {
    for (std::uint64_t d : {e - 1, e, e + 1})
      if (d <= e + 1) v.push_back(d);  // e - 1 of 0 wraps: skipped
  };
  for (std::uint64_t e : edges) around(e);
  for (int b = 2; b <= 33; ++b) around(std::uint64_t{1} << b);
  around(UINT32_MAX);
  v.push_back((std::uint64_t{1} << 40) + 3);
  std::mt19937_64 rng(20261201);
  for (int i = 0; i < 40; ++i) v.push_back(rng() >> (30 + rng() % 34));
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// A dispatch's closed-form size answer against CUB's whole host dispatch at each of
// `counts`: query(closed_form, n, bytes) asks one of the two. Counts above `max` must be
// refused by both, the others answered alike. Returns how many counts were answered.
template <class Counts, class Query>
int expect_closed_form_equals_cub(const Counts& counts, std::uint64_t max, Query query) {
  int checked = 0;
  for (const std::uint64_t n : counts) {
    std::size_t ours = 7, theirs = 8;
    const CUresult a = query(true, n, ours), b = query(false, n, theirs);
    if (n > max) {
      EXPECT_EQ(a, CUDA_ERROR_INVALID_VALUE) << n;
      EXPECT_EQ(b, CUDA_ERROR_INVALID_VALUE) << n;
      continue;
    }
    EXPECT_EQ(a, CUDA_SUCCESS) << n;
    EXPECT_EQ(b, CUDA_SUCCESS) << n;
    EXPECT_EQ(ours, theirs) << "n " << n;
    ++checked;
  }
  return checked;
}
template <class Query>
int expect_closed_form_equals_cub(std::initializer_list<std::uint64_t> counts, std::uint64_t max,
                                  Query query) {
  return expect_closed_form_equals_cub<std::initializer_list<std::uint64_t>>(counts, max, query);
}

}  // namespace test_support
