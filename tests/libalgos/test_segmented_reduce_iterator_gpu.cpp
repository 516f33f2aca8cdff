// Segmented reduce over iterators on a GPU (skips without one): fixed-size segments whose
// offsets are computed by an operator over counting iterators; sums of a counting input
// over offset arrays with empty and very large segments, written last first; and more
// than 2^31 - 1 segments (CUB's per-launch limit), so that the host dispatch advances
// every iterator between launches. Against host references, fresh (build -> bind) and
// store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "segmented_iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

constexpr const char* kPrefix = "cccl-segmented-iterator-";

constexpr std::uint64_t kSegmentCounts[] = {0, 1, 2, 1023, 1025, (1u << 20) + 3};

TEST(SegmentedReduceIteratorGpu, FixedSizeSegmentsFromComputedOffsets) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built_once<fixed_size_sums>(kPrefix), [](std::size_t, const auto& fresh,
                                                                     const auto& loaded,
                                                                     CUstream stream) {
    const float init = 0.5f;
    for (const std::uint64_t segments : kSegmentCounts) {
      SCOPED_TRACE("segments = " + std::to_string(segments));
      // Small integers: every sum is exact in float32.
      const auto h =
          random_values<float>(8 * segments, 0, 3, 3 + static_cast<std::uint32_t>(segments));
      std::vector<float> want(segments, init);
      for (std::uint64_t i = 0; i < segments; ++i)
        for (std::uint64_t k = 8 * i; k < 8 * i + 8; ++k) want[i] += h[k];
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_in = on_device(h, keep);
      std::vector<float> got[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        DeviceBuffer out(std::max<std::uint64_t>(segments, 1) * sizeof(float));
        query_and_run(*exe, segments, stream, [&](void* temp, std::size_t& bytes) {
          return (*exe)(temp, bytes, d_in, out.get(), segments,
                        IteratorValue::of(IteratorKind::transform, std::int64_t{0}),
                        IteratorValue::of(IteratorKind::transform, std::int64_t{1}), &init, stream);
        });
        got[r++] = copy_to_host<float>(out, segments);
      }
      EXPECT_TRUE(same_bytes(got[0], got[1])) << "fresh and store-loaded differ";
      EXPECT_TRUE(same_bytes(got[0], want)) << "differs from the host's sums";
    }
    // A value of another kind than the spec's is refused.
    std::size_t bytes = 1;
    DeviceBuffer out(sizeof(float)), temp(1);
    EXPECT_EQ(
        fresh(temp.get(), bytes, out.get(), out.get(), 1, IteratorValue::counting(std::int64_t{0}),
              IteratorValue::of(IteratorKind::transform, std::int64_t{1}), &init, stream),
        CUDA_ERROR_INVALID_VALUE);
  });
}

TEST(SegmentedReduceIteratorGpu, CountingInputOverOffsetArraysWrittenLastFirst) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built_once<counting_sums_reversed>(kPrefix),
      [](std::size_t, const auto& fresh, const auto& loaded, CUstream stream) {
        const std::int64_t init = -3, start = 5;
        for (const std::uint64_t segments : kSegmentCounts) {
          SCOPED_TRACE("segments = " + std::to_string(segments));
          // Segments of 0..16 items, one of 2^20 + 7 in the middle (a large one), some empty.
          std::mt19937 rng(static_cast<std::uint32_t>(segments));
          std::vector<std::int32_t> begin(segments), end(segments);
          std::int32_t at = 0;
          for (std::uint64_t i = 0; i < segments; ++i) {
            const std::int32_t size = i == segments / 2 && segments > 2
                                          ? (1 << 20) + 7
                                          : static_cast<std::int32_t>(rng() % 17);
            begin[i] = at;
            end[i] = at + size;
            at += size + static_cast<std::int32_t>(rng() % 3);  // gaps: items in no segment
          }
          std::vector<std::int64_t> want(segments);
          for (std::uint64_t i = 0; i < segments; ++i) {
            std::int64_t sum = init;
            for (std::int64_t k = begin[i]; k < end[i]; ++k) sum += start + k;
            want[segments - 1 - i] = sum;
          }
          std::vector<std::unique_ptr<DeviceBuffer>> keep;
          const void* d_begin = on_device(begin, keep);
          const void* d_end = on_device(end, keep);
          std::vector<std::int64_t> got[2];
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            DeviceBuffer out(std::max<std::uint64_t>(segments, 1) * sizeof(std::int64_t));
            query_and_run(*exe, segments, stream, [&](void* temp, std::size_t& bytes) {
              return (*exe)(temp, bytes, IteratorValue::counting(start),
                            IteratorValue::reverse(out.get()), segments, d_begin, d_end, &init,
                            stream);
            });
            got[r++] = copy_to_host<std::int64_t>(out, segments);
          }
          EXPECT_TRUE(same_bytes(got[0], got[1])) << "fresh and store-loaded differ";
          EXPECT_TRUE(same_bytes(got[0], want)) << "differs from the host's sums";
        }
      });
}

// 2^31 + 5 segments: two launches, between which CUB's dispatch advances the output (an
// array packed as an array iterator) and both counting offsets by 2^31 - 1.
TEST(SegmentedReduceIteratorGpu, MoreSegmentsThanOneLaunchTakes) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built_once<unit_segments>(kPrefix),
      [](std::size_t, const auto& fresh, const auto& loaded, CUstream stream) {
        const std::uint64_t segments = (1ull << 31) + 5;
        const std::int64_t init = 100, start = -7;
        for (const auto* exe : {&fresh, &loaded}) {
          DeviceBuffer out(segments * sizeof(std::int64_t));
          ASSERT_EQ(cuMemsetD8(out.ptr, 0xff, segments * sizeof(std::int64_t)), CUDA_SUCCESS);
          query_and_run(*exe, segments, stream, [&](void* temp, std::size_t& bytes) {
            return (*exe)(temp, bytes, IteratorValue::counting(start), out.get(), segments,
                          IteratorValue::counting(std::int64_t{0}),
                          IteratorValue::counting(std::int64_t{1}), &init, stream);
          });
          // out[i] = init + start + i: check both ends of each launch's range and a sample.
          std::vector<std::uint64_t> at = {
              0, 1, (1ull << 31) - 2, (1ull << 31) - 1, 1ull << 31, segments - 1};
          for (std::uint64_t k = 0; k < 64; ++k) at.push_back(k * (segments / 64) + 3);
          for (const std::uint64_t i : at) {
            std::int64_t v = 0;
            ASSERT_EQ(cuMemcpyDtoH(&v, out.ptr + i * sizeof(v), sizeof(v)), CUDA_SUCCESS);
            EXPECT_EQ(v, init + start + static_cast<std::int64_t>(i)) << "segment " << i;
          }
        }
      });
}

}  // namespace
