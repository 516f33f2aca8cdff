// segmented_sort on a GPU: outputs equal a host reference (each segment stably sorted by
// its keys, ascending or descending) for keys and pairs, both orders and every offset
// type, at 0, 1, 2, 1023, 1025, 2^20+3 and 2^26 items in no segment, one segment, a few
// (CUB's fallback kernel) and many (above CUB's partitioning threshold: three-way
// partition, small/medium and large segment kernels) with empty and very large segments
// among them; items outside every segment are left unwritten. Fresh (build -> bind) and
// store-loaded (AlgorithmCache over a store) executables give bitwise-identical outputs.
// Skips without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "cccl_cache/algos/segmented_sort/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace ss = cccl_cache::algos::segmented_sort;
using S = cccl_cache::algos::ScalarType;

const ss::Spec kSpecs[] = {
    {S::float32, S::none, false, S::int32},  {S::int8, S::none, true, S::int64},
    {S::uint32, S::uint32, false, S::uint32}, {S::float64, S::int16, true, S::int32},
    {S::int16, S::uint64, false, S::uint64},  {S::uint64, S::none, true, S::int32},
};

using Built = BuiltStore<ss::Spec, ss::BuildResult>;
Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-segmented-sort-gpu",
                                       std::vector<ss::Spec>(std::begin(kSpecs), std::end(kSpecs)));
  return b;
}

enum class Layout { none, one, few, many };

// Segments over [0, n) as (begin, end) pairs. few: 3 segments (one holding most items, one
// empty, the rest) with a gap before the last; many: more than CUB's partitioning
// threshold, sizes drawn from empty, small (<= 32), medium (<= 3000) and large (up to a
// quarter of n), with a gap now and then.
std::vector<std::pair<std::uint64_t, std::uint64_t>> segments(Layout layout, std::uint64_t n,
                                                              std::mt19937_64& rng) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> v;
  if (layout == Layout::none) return v;
  if (layout == Layout::one) return {{0, n}};
  if (layout == Layout::few) {
    const std::uint64_t a = n * 3 / 4, gap = n > 8 ? 2 : 0;
    return {{0, a}, {a, a}, {std::min(a + gap, n), n}};
  }
  std::uint64_t at = 0;
  while (at < n || v.size() < 600) {
    if (rng() % 50 == 0 && at < n) ++at;  // a gap
    const unsigned kind = rng() % 10;
    std::uint64_t size = kind < 3 ? 0 : kind < 7 ? 1 + rng() % 32 : kind < 9 ? 33 + rng() % 2968
                                                                            : 3001 + rng() % (n / 4 + 1);
    size = std::min(size, n - at);
    v.push_back({at, at + size});
    at += size;
  }
  return v;
}

template <class T>
std::vector<T> random_values(std::uint64_t n, std::mt19937_64& rng) {
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      x = static_cast<T>(std::uniform_real_distribution<double>(-1000, 1000)(rng));
    else
      x = static_cast<T>(rng());
  }
  return v;
}

template <class K, class V, class O>
void check_all(const ss::Spec& spec, const ss::Executable& fresh, const ss::Executable& loaded,
               CUstream stream, std::mt19937_64& rng) {
  const bool pairs = !spec.keys_only();
  for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26})
    for (const Layout layout : {Layout::none, Layout::one, Layout::few, Layout::many}) {
      if (n == (1ull << 26) && layout == Layout::few) continue;  // the largest: one and many
      SCOPED_TRACE("n = " + std::to_string(n) + ", layout " + std::to_string(int(layout)));
      const auto segs = segments(layout, n, rng);
      std::vector<O> begin, end;
      for (const auto& [b, e] : segs) begin.push_back(O(b)), end.push_back(O(e));
      const std::vector<K> keys = random_values<K>(n, rng);
      const std::vector<V> values = random_values<V>(pairs ? n : 0, rng);
      // The reference: each segment stably sorted; the sentinel elsewhere.
      std::vector<K> want_keys(n);
      std::vector<V> want_values(pairs ? n : 0);
      std::memset(want_keys.data(), 0x5a, n * sizeof(K));
      if (pairs) std::memset(want_values.data(), 0x5a, n * sizeof(V));
      std::vector<std::uint64_t> order;
      for (const auto& [b, e] : segs) {
        order.resize(e - b);
        std::iota(order.begin(), order.end(), b);
        std::stable_sort(order.begin(), order.end(), [&](std::uint64_t x, std::uint64_t y) {
          return spec.descending ? keys[y] < keys[x] : keys[x] < keys[y];
        });
        for (std::uint64_t i = 0; i < order.size(); ++i) {
          want_keys[b + i] = keys[order[i]];
          if (pairs) want_values[b + i] = values[order[i]];
        }
      }
      DeviceBuffer d_keys(n * sizeof(K)), d_values(n * sizeof(V)), d_keys_out(n * sizeof(K)),
          d_values_out(n * sizeof(V)), d_begin(begin.size() * sizeof(O)),
          d_end(end.size() * sizeof(O));
      if (n > 0) ASSERT_CU(cuMemcpyHtoD(d_keys.ptr, keys.data(), n * sizeof(K)));
      if (n > 0 && pairs) ASSERT_CU(cuMemcpyHtoD(d_values.ptr, values.data(), n * sizeof(V)));
      if (!segs.empty()) {
        ASSERT_CU(cuMemcpyHtoD(d_begin.ptr, begin.data(), begin.size() * sizeof(O)));
        ASSERT_CU(cuMemcpyHtoD(d_end.ptr, end.data(), end.size() * sizeof(O)));
      }
      auto run = [&](const ss::Executable& exe) {
        std::size_t bytes = 0;
        EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, segs.size(), nullptr,
                      nullptr, stream),
                  CUDA_SUCCESS);
        EXPECT_EQ(bytes, exe.temp_storage_bytes(n, segs.size()));
        DeviceBuffer temp(bytes);
        if (n > 0) {  // the outputs of an empty sort are empty (no allocation to fill)
          EXPECT_EQ(cuMemsetD8(d_keys_out.ptr, 0x5a, n * sizeof(K)), CUDA_SUCCESS);
          EXPECT_EQ(cuMemsetD8(d_values_out.ptr, 0x5a, n * sizeof(V)), CUDA_SUCCESS);
        }
        EXPECT_EQ(exe(temp.get(), bytes, d_keys.get(), d_keys_out.get(), d_values.get(),
                      d_values_out.get(), n, segs.size(), d_begin.get(), d_end.get(), stream),
                  CUDA_SUCCESS);
        EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
        return std::pair{read_device<K>(d_keys_out.ptr, n), read_device<V>(d_values_out.ptr, pairs ? n : 0)};
      };
      const auto got = run(fresh);
      ASSERT_TRUE(std::memcmp(got.first.data(), want_keys.data(), n * sizeof(K)) == 0)
          << "keys differ from the host reference";
      if (pairs)
        ASSERT_TRUE(std::memcmp(got.second.data(), want_values.data(), n * sizeof(V)) == 0)
            << "values differ from the host reference";
      const auto again = run(loaded);
      ASSERT_TRUE(again.first == got.first || std::memcmp(again.first.data(), got.first.data(),
                                                          n * sizeof(K)) == 0)
          << "fresh and store-loaded keys differ";
      ASSERT_TRUE(std::memcmp(again.second.data(), got.second.data(), got.second.size() * sizeof(V)) == 0)
          << "fresh and store-loaded values differ";
    }
}

}  // namespace

TEST(SegmentedSortGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const ss::Executable& f,
                                        const ss::Executable& l, CUstream stream) {
    std::mt19937_64 rng(71 + i);
    const ss::Spec& spec = kSpecs[i];
    const S value = spec.keys_only() ? S::uint8 : spec.value_type.scalar;  // keys only: unused
    with_host_type(spec.key_type, [&](auto key) {
      with_host_type(value, [&](auto v) {
        with_count_type(spec.offset_type, [&](auto offset) {
          check_all<typename decltype(key)::type, typename decltype(v)::type,
                    typename decltype(offset)::type>(spec, f, l, stream, rng);
        });
      });
    });
  });
}

TEST(SegmentedSortGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = ss::bind(b.fresh[0], 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 1ull << 63, 1, nullptr,
                   nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(exe->temp_storage_bytes(1ull << 63, 1), 0u);
  DeviceBuffer buf(4096);
  bytes = 1;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), nullptr, nullptr, 1000, 1, buf.get(),
                   buf.get(), nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "too small temp storage";
  ss::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 1, 1, nullptr, nullptr,
                   nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_GT(moved.temp_storage_bytes(5, 1), 0u);
}
