// Scans of struct items on a GPU (skips without one): a running count/min/max (12 bytes:
// CUB's multi-word tile state), an exclusive running argmax (8 bytes: the single-word
// one) and a seeded running sum of four unsigned ints (16 bytes aligned 4, where the
// host's stand-in is aligned 8), against a host scan on sizes 0, 1, 2, 1023, 1025,
// 2^20 + 3 and 2^26; fresh and store-loaded outputs bitwise equal, and with a spec's
// initial value in device memory too.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "scan_gpu_support.hpp"
#include "struct_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

template <auto Make>
const auto& built() {
  return built_once<Make>("cccl-struct-scan-");
}

// For every count: items made by item(rng, i), scanned by fold on the host (from `init`
// where the spec takes one) and on the fresh and loaded executables, all bitwise equal.
template <class T, class Exe, class Fold, class Item>
void check_scan(const Exe& fresh, const Exe& loaded, CUstream stream, ScanInit how, const T& init,
                Fold fold, Item item) {
  constexpr bool kExclusive = std::is_same_v<Exe, scan::ExclusiveExecutable>;
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1023},
                              std::size_t{1025}, (std::size_t{1} << 20) + 3, std::size_t{1} << 26}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::mt19937 rng(23 + static_cast<std::uint32_t>(n));
    std::vector<T> items(n), want(n);
    for (std::size_t i = 0; i < n; ++i) items[i] = item(rng, i);
    T acc = init;
    for (std::size_t i = 0; i < n; ++i) {
      if (kExclusive) want[i] = acc;
      acc = i == 0 && how == ScanInit::none ? items[0] : fold(acc, items[i]);
      if (!kExclusive) want[i] = acc;
    }
    DeviceBuffer d_in(n * sizeof(T));
    copy_to_device(d_in, items);
    const auto got = scan_on<T>(fresh, d_in.get(), n, init, how, stream);
    EXPECT_TRUE(same_bytes(got, want)) << "differs from the host's scan";
    EXPECT_TRUE(same_bytes(scan_on<T>(loaded, d_in.get(), n, init, how, stream), got))
        << "fresh and store-loaded differ";
    if (how == ScanInit::host)
      EXPECT_TRUE(same_bytes(scan_on<T>(loaded, d_in.get(), n, init, ScanInit::device, stream), got))
          << "the initial value from device memory differs";
  }
}

TEST(StructScanGpu, RunningCountMinMaxOf12ByteItems) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&scan_stats3>(), [](std::size_t, const auto& fresh, const auto& loaded,
                                                      CUstream stream) {
    check_scan<HostStats3>(fresh, loaded, stream, ScanInit::none, HostStats3{}, host_merge_stats,
                           [](std::mt19937& rng, std::size_t) {
                             const float v = static_cast<float>(static_cast<int>(rng() % 20001) - 10000) * 0.25f;
                             return HostStats3{1, v, v};
                           });
  });
}

TEST(StructScanGpu, ExclusiveRunningArgmaxOf8ByteItems) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&scan_argmax>(), [](std::size_t, const auto& fresh, const auto& loaded,
                                                      CUstream stream) {
    // Few distinct values, so ties (the lowest index wins) are everywhere.
    check_scan<HostArgmax>(fresh, loaded, stream, ScanInit::host, HostArgmax{-1e30f, -1}, host_argmax,
                           [](std::mt19937& rng, std::size_t i) {
                             return HostArgmax{static_cast<float>(rng() % 97), static_cast<std::int32_t>(i)};
                           });
  });
}

TEST(StructScanGpu, SeededRunningSumOf16ByteItemsAligned4) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&scan_quad_seeded>(), [](std::size_t, const auto& fresh,
                                                           const auto& loaded, CUstream stream) {
    check_scan<HostQuad>(fresh, loaded, stream, ScanInit::host, HostQuad{1, 2, 3, 0xfffffff0u},
                         host_add_quad, [](std::mt19937& rng, std::size_t i) {
                           return HostQuad{static_cast<std::uint32_t>(rng()), 1, static_cast<std::uint32_t>(i),
                                           static_cast<std::uint32_t>(rng() % 7)};
                         });
  });
}

}  // namespace
