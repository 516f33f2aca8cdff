// What the histogram tests share: a spec over a samples iterator, and the GPU tests' host
// reference (CUB's ScaleTransform, CCCL 3.5, binning one sample in the spec's types).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "cccl_cache/algos/histogram_even/spec.hpp"

namespace test_support {

// A histogram of `type` samples read through `samples`, int32 bins, `offset` counts.
inline cccl_cache::algos::histogram_even::Spec histogram_of(
    cccl_cache::algos::ScalarType type, cccl_cache::algos::Iterator samples,
    cccl_cache::algos::ScalarType offset = cccl_cache::algos::ScalarType::int32) {
  cccl_cache::algos::histogram_even::Spec s;
  s.type = type;
  s.offset_type = offset;
  s.samples = std::move(samples);
  return s;
}

// The sample's bin among `bins` over [lower, upper) in the common type, or -1 outside.
template <class T, class L>
int bin_of(T sample, L lower, L upper, int bins) {
  using C = std::common_type_t<L, T>;
  const C c = static_cast<C>(sample), lo = static_cast<C>(lower), hi = static_cast<C>(upper);
  if (!(c >= lo && c < hi)) return -1;
  if constexpr (std::is_integral_v<C>) {
    using A = std::conditional_t<sizeof(T) + sizeof(C) <= 4, std::uint32_t, std::uint64_t>;
    return static_cast<int>(static_cast<A>(c - lo) * static_cast<A>(static_cast<C>(bins)) /
                            static_cast<A>(static_cast<C>(hi - lo)));
  } else {
    const C reciprocal = static_cast<C>(static_cast<C>(bins) / static_cast<C>(hi - lo));
    return static_cast<int>((c - lo) * reciprocal);
  }
}

// The counts of `samples` in `bins` bins over [lower, upper), as counter type C.
template <class C, class T, class L>
std::vector<C> host_histogram(const std::vector<T>& samples, L lower, L upper, int bins) {
  std::vector<C> want(bins, 0);
  for (const T& x : samples)
    if (const int b = bin_of(x, lower, upper, bins); b >= 0 && b < bins) ++want[b];
  return want;
}

}  // namespace test_support
