// Radix sort and segmented sort of scalar keys with struct values on a GPU (skips without
// one): float32 keys with 12-byte key3 values (ascending), and int32 keys with 16-byte
// payload values (descending) in no segment, one, many of mixed lengths and one per item;
// each against a host stable sort, at 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26 items; fresh
// (build -> bind) and store-loaded executables bitwise identical, values compared field
// by field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "segments.hpp"
#include "struct_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const std::uint64_t kCounts[] = {0, 1, 2, 1023, 1025, (1ull << 20) + 3, 1ull << 26};

// Keys and values of [begin, end) in the order of a stable sort of the keys.
template <class K, class V>
void host_sort(std::vector<K>& keys, std::vector<V>& values, std::uint64_t begin, std::uint64_t end,
               bool descending) {
  std::vector<std::uint64_t> order(end - begin);
  std::iota(order.begin(), order.end(), begin);
  std::stable_sort(order.begin(), order.end(), [&](std::uint64_t x, std::uint64_t y) {
    return descending ? keys[y] < keys[x] : keys[x] < keys[y];
  });
  std::vector<K> k;
  std::vector<V> v;
  for (const std::uint64_t i : order) k.push_back(keys[i]), v.push_back(values[i]);
  std::copy(k.begin(), k.end(), keys.begin() + begin);
  std::copy(v.begin(), v.end(), values.begin() + begin);
}

std::tuple<std::int32_t, float, std::uint32_t> fields(const HostKey3& k) {
  return {k.major, k.minor, k.tag};
}
std::pair<double, std::int64_t> fields(const HostPayload& p) { return {p.weight, p.id}; }

TEST(StructSortGpu, RadixSortMovesStructValuesWithTheirKeys) {
  SKIP_WITHOUT_GPU();
  for_each_count(
      built_once<&radix_key3_values>("cccl-struct-"), 0, kCounts,
      [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
        // Few distinct keys: equal keys keep their values' input order.
        std::vector<float> keys = random_values<float>(n, -50, 50, 3 + static_cast<std::uint32_t>(n));
        std::vector<HostKey3> values(n);
        for (std::uint64_t i = 0; i < n; ++i)
          values[i] = {static_cast<std::int32_t>(i) - 5, static_cast<float>(i % 97), static_cast<std::uint32_t>(i)};
        const void* d_keys = on_device(keys, keep);
        const void* d_values = on_device(values, keep);
        std::vector<float> got_keys[2];
        std::vector<decltype(fields(HostKey3{}))> got_values[2];
        int r = 0;
        for (const auto* exe : {&fresh, &loaded}) {
          const auto keys_out = zeroed<float>(n);
          const auto values_out = zeroed<HostKey3>(n);
          query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
            return (*exe)(temp, bytes, d_keys, keys_out->get(), d_values, values_out->get(), n, 0, 32,
                          stream);
          });
          got_keys[r] = copy_to_host<float>(*keys_out, n);
          for (const HostKey3& v : copy_to_host<HostKey3>(*values_out, n)) got_values[r].push_back(fields(v));
          ++r;
        }
        host_sort(keys, values, 0, n, false);
        std::vector<decltype(fields(HostKey3{}))> want;
        for (const HostKey3& v : values) want.push_back(fields(v));
        expect_fresh_and_loaded(got_keys, keys, "keys");
        expect_fresh_and_loaded(got_values, want, "values");
      });
}

TEST(StructSortGpu, SegmentedSortMovesStructValuesWithTheirKeys) {
  SKIP_WITHOUT_GPU();
  for_each_count(
      built_once<&segmented_payload_values>("cccl-struct-"), 0, kCounts,
      [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
        std::mt19937_64 rng(n + 61);
        const std::vector<std::int32_t> keys =
            random_values<std::int32_t>(n, -100, 100, 5 + static_cast<std::uint32_t>(n));
        const std::vector<HostPayload> values = random_payloads(n, 9);
        const void* d_keys = on_device(keys, keep);
        const void* d_values = on_device(values, keep);
        for (const Layout layout : {Layout::none, Layout::one, Layout::mixed, Layout::singles}) {
          if (layout == Layout::singles && n > (1u << 20) + 3) continue;  // mixed covers 2^26
          SCOPED_TRACE("layout " + std::to_string(static_cast<int>(layout)));
          const Segments seg = segments(layout, n, rng);
          const std::uint64_t m = seg.begin.size();
          const std::vector<std::int64_t> begin(seg.begin.begin(), seg.begin.end());
          const std::vector<std::int64_t> end(seg.end.begin(), seg.end.end());
          const void* d_begin = on_device(begin, keep);
          const void* d_end = on_device(end, keep);
          std::vector<std::int32_t> got_keys[2];
          std::vector<decltype(fields(HostPayload{}))> got_values[2];
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            // Items outside every segment stay as written here: zeros.
            const auto keys_out = zeroed<std::int32_t>(n);
            const auto values_out = zeroed<HostPayload>(n);
            std::size_t bytes = 0;
            ASSERT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, m, nullptr, nullptr,
                             stream),
                      CUDA_SUCCESS);
            DeviceBuffer temp(bytes);
            ASSERT_EQ((*exe)(temp.get(), bytes, d_keys, keys_out->get(), d_values, values_out->get(), n, m,
                             d_begin, d_end, stream),
                      CUDA_SUCCESS);
            ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
            got_keys[r] = copy_to_host<std::int32_t>(*keys_out, n);
            for (const HostPayload& v : copy_to_host<HostPayload>(*values_out, n))
              got_values[r].push_back(fields(v));
            ++r;
          }
          std::vector<std::int32_t> want_keys(n, 0);
          std::vector<HostPayload> want_values(n, HostPayload{0, 0});
          for (std::uint64_t s = 0; s < m; ++s) {
            std::copy(keys.begin() + seg.begin[s], keys.begin() + seg.end[s], want_keys.begin() + seg.begin[s]);
            std::copy(values.begin() + seg.begin[s], values.begin() + seg.end[s],
                      want_values.begin() + seg.begin[s]);
            host_sort(want_keys, want_values, seg.begin[s], seg.end[s], true);
          }
          std::vector<decltype(fields(HostPayload{}))> want;
          for (const HostPayload& v : want_values) want.push_back(fields(v));
          expect_fresh_and_loaded(got_keys, want_keys, "keys");
          expect_fresh_and_loaded(got_values, want, "values");
        }
      });
}

}  // namespace
