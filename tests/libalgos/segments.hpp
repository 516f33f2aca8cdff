// Segment layouts the segmented GPU tests share: none, one over every item, many of mixed
// lengths (empty, small, medium, large, one holding half the items, some gaps) and one
// per item.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace test_support {

// begin/end offsets of each layout for n items.
enum class Layout { none, one, mixed, singles };
struct Segments {
  std::vector<std::uint64_t> begin, end;
  std::uint64_t longest = 0;
};
inline Segments segments(Layout layout, std::uint64_t n, std::mt19937_64& rng) {
  Segments s;
  auto add = [&](std::uint64_t b, std::uint64_t e) {
    s.begin.push_back(b);
    s.end.push_back(e);
    s.longest = std::max(s.longest, e - b);
  };
  if (layout == Layout::one) add(0, n);
  if (layout == Layout::singles)
    for (std::uint64_t i = 0; i < n; ++i) add(i, i + 1);
  if (layout == Layout::mixed) {
    // Empty, small (per thread), medium (per warp), large (per block) segments, one of
    // them half the items; sometimes a gap between segments; 100 empty ones for none.
    const std::uint64_t huge_at = n / 4;
    std::uint64_t at = 0;
    while (at < n || s.begin.size() < 100) {
      const std::uint64_t r = rng();
      std::uint64_t len = r % 4 == 0 ? 0 : r % 4 == 1 ? 1 + r % 16 : r % 4 == 2 ? 17 + r % 600 : r % 5000;
      if (at <= huge_at && at + len > huge_at) len = std::max(len, n / 2);
      len = std::min(len, n - std::min(at, n));
      add(at, at + len);
      at = std::min(n, at + len + (r % 16 == 0 ? 3 : 0));
      if (at >= n && s.begin.size() >= 100) break;
    }
  }
  return s;
}

}  // namespace test_support
