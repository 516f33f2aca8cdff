// What the closed-form temp-storage tests share: the item counts to compare CUB's
// dispatch and the closed form at. Header-only, for one test binary.
#pragma once

#include <algorithm>
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

}  // namespace test_support
