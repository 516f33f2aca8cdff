// Segmented sort over offset iterators on a GPU (skips without one): rows of 8 whose
// offsets are computed by one operator over counting iterators; segments of growing size
// (small, medium, large and empty ones, in gaps) begun at computed offsets and ended by
// an array; and more one-item segments than two partitions take (2^31 - 1 segments each),
// so that the host dispatch copies and advances both offsets for each. Against host
// references (each segment stably sorted, items outside every segment unwritten), fresh
// (build -> bind) and store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "segmented_iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

constexpr const char* kPrefix = "cccl-segmented-sort-iterator-";

// The size query (equal to temp_storage_bytes), then the sort with that much temp
// storage, the stream synchronized.
template <class Exe>
void sort(const Exe& exe, const void* keys, void* keys_out, const void* values, void* values_out,
          std::uint64_t n, std::uint64_t segments, Input begin, Input end, CUstream stream) {
  std::size_t bytes = 0;
  EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, segments, begin, end, stream),
            CUDA_SUCCESS);
  EXPECT_EQ(bytes, exe.temp_storage_bytes(n, segments));
  DeviceBuffer temp(bytes);
  EXPECT_EQ(exe(temp.get(), bytes, keys, keys_out, values, values_out, n, segments, begin, end, stream),
            CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
}

// Each segment [begin[i], end[i]) of keys (and values) stably sorted; 0x5a bytes elsewhere.
template <class K, class V>
std::pair<std::vector<K>, std::vector<V>> reference(const std::vector<K>& keys,
                                                    const std::vector<V>& values,
                                                    const std::vector<std::int64_t>& begin,
                                                    const std::vector<std::int64_t>& end,
                                                    bool descending) {
  std::vector<K> k(keys.size());
  std::vector<V> v(values.size());
  std::memset(k.data(), 0x5a, k.size() * sizeof(K));
  std::memset(v.data(), 0x5a, v.size() * sizeof(V));
  std::vector<std::int64_t> order;
  for (std::size_t s = 0; s < begin.size(); ++s) {
    if (end[s] <= begin[s]) continue;
    order.resize(static_cast<std::size_t>(end[s] - begin[s]));
    std::iota(order.begin(), order.end(), begin[s]);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
      return descending ? keys[y] < keys[x] : keys[x] < keys[y];
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
      k[begin[s] + i] = keys[order[i]];
      if (!v.empty()) v[begin[s] + i] = values[order[i]];
    }
  }
  return {std::move(k), std::move(v)};
}

TEST(SegmentedSortIteratorGpu, RowsOfEightFromComputedOffsets) {
  SKIP_WITHOUT_GPU();
  with_fresh_and_loaded<sorted_rows>(kPrefix, [](const auto& fresh, const auto& loaded,
                                                 CUstream stream) {
    for (const std::uint64_t rows : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3}) {
      SCOPED_TRACE("rows = " + std::to_string(rows));
      const std::uint64_t n = 8 * rows;
      // Few distinct keys: equal keys in a row keep their order (the values say).
      const auto keys = random_values<float>(n, -4, 4, 11 + static_cast<std::uint32_t>(rows));
      std::vector<std::int32_t> values(n);
      std::iota(values.begin(), values.end(), 0);
      std::vector<std::int64_t> begin(rows), end(rows);
      for (std::uint64_t i = 0; i < rows; ++i) begin[i] = 8 * i, end[i] = 8 * i + 8;
      const auto [want_keys, want_values] = reference(keys, values, begin, end, false);
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_keys = on_device(keys, keep);
      const void* d_values = on_device(values, keep);
      std::vector<float> got_keys[2];
      std::vector<std::int32_t> got_values[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        auto keys_out = zeroed<float>(n), values_out = zeroed<std::int32_t>(n);
        sort(*exe, d_keys, keys_out->get(), d_values, values_out->get(), n, rows,
             IteratorValue::of(IteratorKind::transform, std::int64_t{0}),
             IteratorValue::of(IteratorKind::transform, std::int64_t{1}), stream);
        got_keys[r] = copy_to_host<float>(*keys_out, n);
        got_values[r++] = copy_to_host<std::int32_t>(*values_out, n);
      }
      expect_fresh_and_loaded(got_keys, want_keys, "keys");
      expect_fresh_and_loaded(got_values, want_values, "values");
    }
    // An offset value of another kind than the spec's is refused.
    std::size_t bytes = 1;
    DeviceBuffer buffer(64), temp(1);
    EXPECT_EQ(fresh(temp.get(), bytes, buffer.get(), buffer.get(), buffer.get(), buffer.get(), 8, 1,
                    buffer.get(), IteratorValue::of(IteratorKind::transform, std::int64_t{1}),
                    stream),
              CUDA_ERROR_INVALID_VALUE);
  });
}

TEST(SegmentedSortIteratorGpu, GrowingSegmentsBegunAtComputedOffsets) {
  SKIP_WITHOUT_GPU();
  with_fresh_and_loaded<growing_segments>(kPrefix, [](const auto& fresh, const auto& loaded,
                                                      CUstream stream) {
    // Segment i may hold i + 1 items from i (i + 1) / 2: it holds all of them, half, or
    // none (a gap of unwritten items after it). 11585 segments: 2^26 + 1 items.
    for (const std::uint64_t segments : {0ull, 1ull, 2ull, 1023ull, 1025ull, 11585ull}) {
      SCOPED_TRACE("segments = " + std::to_string(segments));
      const std::uint64_t n = segments * (segments + 1) / 2;
      std::vector<std::int64_t> begin(segments), end(segments);
      for (std::uint64_t i = 0; i < segments; ++i) {
        begin[i] = static_cast<std::int64_t>(i * (i + 1) / 2);
        const std::uint64_t size = i % 5 == 2 ? 0 : i % 3 == 1 ? (i + 1) / 2 : i + 1;
        end[i] = begin[i] + static_cast<std::int64_t>(size);
      }
      const auto keys = random_values<std::int32_t>(n, -1000000, 1000000, 5);
      const auto want = reference(keys, std::vector<std::int32_t>{}, begin, end, true).first;
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_keys = on_device(keys, keep);
      const void* d_end = on_device(end, keep);
      std::vector<std::int32_t> got[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        auto out = zeroed<std::int32_t>(n);
        if (n > 0) ASSERT_EQ(cuMemsetD8(out->ptr, 0x5a, n * sizeof(std::int32_t)), CUDA_SUCCESS);
        sort(*exe, d_keys, out->get(), nullptr, nullptr, n, segments,
             IteratorValue::of(IteratorKind::transform, std::int64_t{0}), d_end, stream);
        got[r++] = copy_to_host<std::int32_t>(*out, n);
      }
      expect_fresh_and_loaded(got, want, "keys");
    }
  });
}

// 2 (2^31 - 1) + 5 one-item segments: three partitions, for each of which CUB's dispatch
// copies both counting offsets and advances the copies; out[i] = in[i] throughout.
TEST(SegmentedSortIteratorGpu, MoreSegmentsThanTwoPartitionsTake) {
  SKIP_WITHOUT_GPU();
  with_fresh_and_loaded<unit_sort_segments>(kPrefix, [](const auto& fresh, const auto& loaded,
                                                        CUstream stream) {
    const std::uint64_t n = 2 * ((1ull << 31) - 1) + 5;
    std::vector<std::uint8_t> keys(n);
    for (std::uint64_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
    DeviceBuffer d_keys(n), out(n);
    ASSERT_EQ(cuMemcpyHtoD(d_keys.ptr, keys.data(), n), CUDA_SUCCESS);
    for (const auto* exe : {&fresh, &loaded}) {
      ASSERT_EQ(cuMemsetD8(out.ptr, 0, n), CUDA_SUCCESS);
      sort(*exe, d_keys.get(), out.get(), nullptr, nullptr, n, n,
           IteratorValue::counting(std::int64_t{0}), IteratorValue::counting(std::int64_t{1}), stream);
      std::vector<std::uint8_t> got(n);
      ASSERT_EQ(cuMemcpyDtoH(got.data(), out.ptr, n), CUDA_SUCCESS);
      if (got != keys) {
        const auto [wrong, first] = mismatches(got, keys);
        ADD_FAILURE() << wrong << " items moved, the first at " << first;
      }
    }
  });
}

}  // namespace
