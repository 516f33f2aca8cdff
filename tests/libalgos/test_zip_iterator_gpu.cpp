// Zip iterators on a GPU (skips without one): an argmax reporting where (reduce of
// zip(float32 values, counting(int64)) into a 16-byte {value, index}), a running argmax
// read from a zip and written into two arrays through a zip, and an exclusive one read
// last first whose values are discarded (zip(discard, int32)), and struct items read as a
// transform's results (an argmax of magnitudes over a zip, a running argmax of scores over
// counting); against host references on
// sizes 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26, fresh (build -> bind) and store-loaded
// executables bitwise identical.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"
#include "zip_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

// An exclusive running argmax of the values read last first (zip(reverse(float32),
// counting(int32))), of which only the index is kept (zip(discard, int32)).
scan::ExclusiveSpec reversed_argmax_indices() {
  scan::ExclusiveSpec s;
  s.type = argmax_pair();
  s.op = reduce_argmax().op;
  s.input = Iterator::zip(
      {Iterator::reverse(ScalarType::float32), Iterator::counting(ScalarType::int32)});
  s.output = Iterator::zip({Iterator::discard(), Iterator::array(ScalarType::int32)});
  return s;
}

constexpr const char* kPrefix = "cccl-zip-";

// Values with many ties (integers 0..999 as float): the argmax's lower-index rule decides.
std::vector<float> values_of(std::uint64_t n) {
  return random_values<float>(n, 0, 999, 41 + static_cast<std::uint32_t>(n));
}

TEST(ZipIteratorGpu, ArgmaxOfValuesZippedWithTheirPositions) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built_once<zip_argmax64>(kPrefix),
      [](std::size_t, const auto& fresh, const auto& loaded, CUstream stream) {
        const std::int64_t start = 1000;
        const HostArgmax64 init{-1.0e30f, -1};
        for (const std::uint64_t n : kGpuCounts) {
          SCOPED_TRACE("n = " + std::to_string(n));
          const auto h = values_of(n);
          HostArgmax64 want = init;
          for (std::uint64_t i = 0; i < n; ++i)
            want = host_argmax64(want, {h[i], start + static_cast<std::int64_t>(i)});
          std::vector<std::unique_ptr<DeviceBuffer>> keep;
          const IteratorValue parts[] = {IteratorValue::array(on_device(h, keep)),
                                         IteratorValue::counting(start)};
          std::vector<HostArgmax64> got[2];
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            DeviceBuffer out(sizeof(HostArgmax64));
            query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
              return (*exe)(temp, bytes, IteratorValue::zip(parts, 2), out.get(), n, &init, stream);
            });
            got[r++] = copy_to_host<HostArgmax64>(out, 1);
          }
          EXPECT_TRUE(same_bytes(got[0], got[1])) << "fresh and store-loaded differ";
          EXPECT_EQ(got[0][0].value, want.value);
          EXPECT_EQ(got[0][0].index, want.index);
        }
      });
}

TEST(ZipIteratorGpu, RunningArgmaxWrittenIntoTwoArrays) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built_once<zip_running_argmax>(kPrefix), [](std::size_t,
                                                                        const auto& fresh,
                                                                        const auto& loaded,
                                                                        CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const auto h = values_of(n);
      std::vector<float> want_values(n);
      std::vector<std::int32_t> want_index(n);
      HostArgmax acc{};
      for (std::uint64_t i = 0; i < n; ++i) {
        const HostArgmax x{h[i], static_cast<std::int32_t>(i)};
        acc = i == 0 ? x : host_argmax(acc, x);
        want_values[i] = acc.value;
        want_index[i] = acc.index;
      }
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const IteratorValue in[] = {IteratorValue::array(on_device(h, keep)),
                                  IteratorValue::counting(std::int32_t{0})};
      std::vector<float> values[2];
      std::vector<std::int32_t> index[2];
      int r = 0;
      for (const auto* exe : {&fresh, &loaded}) {
        DeviceBuffer v(n * sizeof(float)), x(n * sizeof(std::int32_t));
        const IteratorValue out[] = {IteratorValue::array(v.get()), IteratorValue::array(x.get())};
        query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return (*exe)(temp, bytes, IteratorValue::zip(in, 2), IteratorValue::zip(out, 2), n,
                        stream);
        });
        values[r] = copy_to_host<float>(v, n);
        index[r++] = copy_to_host<std::int32_t>(x, n);
      }
      EXPECT_TRUE(same_bytes(values[0], values[1]) && same_bytes(index[0], index[1]))
          << "fresh and loaded differ";
      EXPECT_TRUE(same_bytes(values[0], want_values)) << "values differ from the host's";
      EXPECT_TRUE(same_bytes(index[0], want_index)) << "indices differ from the host's";
    }
  });
}

TEST(ZipIteratorGpu, ExclusiveArgmaxReadLastFirstKeepsOnlyTheIndex) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built_once<reversed_argmax_indices>(kPrefix),
      [](std::size_t, const auto& fresh, const auto& loaded, CUstream stream) {
        const HostArgmax init{-1.0f, -7};
        for (const std::uint64_t n : kGpuCounts) {
          SCOPED_TRACE("n = " + std::to_string(n));
          const auto h = values_of(n);
          std::vector<std::int32_t> want(n);
          HostArgmax acc = init;
          for (std::uint64_t i = 0; i < n; ++i) {
            want[i] = acc.index;
            acc = host_argmax(acc, {h[n - 1 - i], static_cast<std::int32_t>(i)});
          }
          std::vector<std::unique_ptr<DeviceBuffer>> keep;
          const IteratorValue in[] = {IteratorValue::reverse(on_device(h, keep)),
                                      IteratorValue::counting(std::int32_t{0})};
          std::vector<std::int32_t> got[2];
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            DeviceBuffer x(n * sizeof(std::int32_t));
            const IteratorValue out[] = {IteratorValue::discard(), IteratorValue::array(x.get())};
            query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
              return (*exe)(temp, bytes, IteratorValue::zip(in, 2), IteratorValue::zip(out, 2), n,
                            &init, stream);
            });
            got[r++] = copy_to_host<std::int32_t>(x, n);
          }
          EXPECT_TRUE(same_bytes(got[0], got[1])) << "fresh and store-loaded differ";
          EXPECT_TRUE(same_bytes(got[0], want)) << "differs from the host's exclusive argmax";
        }
      });
}

// The argmax of |x| with its position, the items read as a transform's vi64 results over
// zip(float32, counting(int64)).
TEST(ZipIteratorGpu, ArgmaxOfMagnitudesFromATransformOverAZip) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built_once<transform_argmax64>(kPrefix), [](std::size_t, const auto& fresh, const auto& loaded, CUstream stream) {
        const std::int64_t start = -7;
        const HostArgmax64 init{-1.0f, -1};
        for (const std::uint64_t n : kGpuCounts) {
          SCOPED_TRACE("n = " + std::to_string(n));
          const auto h = random_values<float>(n, -999, 999, 53 + static_cast<std::uint32_t>(n));
          HostArgmax64 want = init;
          for (std::uint64_t i = 0; i < n; ++i)
            want = host_argmax64(want, {std::fabs(h[i]), start + static_cast<std::int64_t>(i)});
          std::vector<std::unique_ptr<DeviceBuffer>> keep;
          const IteratorValue parts[] = {IteratorValue::array(on_device(h, keep)), IteratorValue::counting(start)};
          const IteratorValue zip = IteratorValue::zip(parts, 2);
          std::vector<HostArgmax64> got[2];
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            DeviceBuffer out(sizeof(HostArgmax64));
            query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
              return (*exe)(temp, bytes, IteratorValue::transform_of(&zip), out.get(), n, &init, stream);
            });
            got[r++] = copy_to_host<HostArgmax64>(out, 1);
          }
          EXPECT_TRUE(same_bytes(got[0], got[1])) << "fresh and store-loaded differ";
          EXPECT_EQ(got[0][0].value, want.value);
          EXPECT_EQ(got[0][0].index, want.index);
        }
      });
}

// A running argmax of scores computed from each index: an inclusive vi64 scan over
// transform(scored, counting(int64)).
TEST(ZipIteratorGpu, RunningArgmaxOfScoresFromATransformOverCounting) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(
      built_once<scored_running_argmax>(kPrefix),
      [](std::size_t, const auto& fresh, const auto& loaded, CUstream stream) {
        const std::int64_t start = 12345;
        for (const std::uint64_t n : kGpuCounts) {
          SCOPED_TRACE("n = " + std::to_string(n));
          std::vector<HostArgmax64> want(n);
          HostArgmax64 acc{};
          for (std::uint64_t i = 0; i < n; ++i) {
            const std::int64_t k = start + static_cast<std::int64_t>(i);
            const HostArgmax64 x{static_cast<float>((k * 37) % 1000), k};
            want[i] = acc = i == 0 ? x : host_argmax64(acc, x);
          }
          std::vector<HostArgmax64> got[2];
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            DeviceBuffer out(n * sizeof(HostArgmax64));
            query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
              return (*exe)(temp, bytes, IteratorValue::of(IteratorKind::transform, start), out.get(), n, stream);
            });
            got[r++] = copy_to_host<HostArgmax64>(out, n);
          }
          EXPECT_TRUE(same_bytes(got[0], got[1])) << "fresh and store-loaded differ";
          // Field by field: the host's items have indeterminate padding.
          std::uint64_t wrong = 0;
          for (std::uint64_t i = 0; i < n; ++i)
            wrong += got[0][i].value != want[i].value || got[0][i].index != want[i].index;
          EXPECT_EQ(wrong, 0u) << "items differ from the host's running argmax";
        }
      });
}

}  // namespace
