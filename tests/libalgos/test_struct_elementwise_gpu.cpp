// Binary search and transforms of struct items on a GPU (skips without one): the lower
// and upper bounds of 12-byte keys among a sorted range of them (many equal) by a custom
// comparator, against std::lower_bound / upper_bound; a struct read (a payload's weight
// doubled), a struct written (a value and an index paired), and a zip read as a struct (a
// value times its position); at 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26 items, fresh
// (build -> bind) and store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "struct_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

static_assert(sizeof(HostKey3) == 12 && sizeof(HostPayload) == 16 && sizeof(vi64) == 16);

const std::uint64_t kCounts[] = {0, 1, 2, 1023, 1025, (1ull << 20) + 3, 1ull << 26};

// n keys of (major, minor) in a small grid (many equal), tags random.
std::vector<HostKey3> grid_keys(std::uint64_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<HostKey3> v(n);
  for (auto& k : v)
    k = {static_cast<std::int32_t>(rng() % 40) - 20, static_cast<float>(rng() % 6) * 0.5f,
         static_cast<std::uint32_t>(rng())};
  return v;
}

template <auto Make>
void search_matches_the_host(bool upper) {
  SKIP_WITHOUT_GPU();
  auto range = grid_keys(4099, 31);
  std::stable_sort(range.begin(), range.end(), host_key3_less);
  for_each_count(built_once<Make>("cccl-struct-"), 0, kCounts,
                 [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   const auto values = grid_keys(n, static_cast<std::uint32_t>(n) + 37);
                   const void* d_range = on_device(range, keep);
                   const void* d_values = on_device(values, keep);
                   std::vector<std::int64_t> got[2];
                   int r = 0;
                   for (const auto* exe : {&fresh, &loaded}) {
                     const auto out = zeroed<std::int64_t>(n);
                     query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
                       return (*exe)(temp, bytes, d_range, range.size(), d_values, n, out->get(), stream);
                     });
                     got[r++] = copy_to_host<std::int64_t>(*out, n);
                   }
                   std::vector<std::int64_t> want(n);
                   for (std::uint64_t i = 0; i < n; ++i) {
                     const auto at = upper ? std::upper_bound(range.begin(), range.end(), values[i], host_key3_less)
                                           : std::lower_bound(range.begin(), range.end(), values[i], host_key3_less);
                     want[i] = at - range.begin();
                   }
                   expect_fresh_and_loaded(got, want, upper ? "upper bounds" : "lower bounds");
                 });
}

TEST(StructElementwiseGpu, LowerBoundsOfStructKeysMatchTheHostFreshAndLoaded) {
  search_matches_the_host<&lower_bound_key3>(false);
}
TEST(StructElementwiseGpu, UpperBoundsOfStructKeysMatchTheHostFreshAndLoaded) {
  search_matches_the_host<&upper_bound_key3>(true);
}

// For each count: run(exe, n, keep, out, stream) writes n Out items into `out` by the
// fresh and by the loaded executable; both equal want(n) (fresh bitwise, loaded as fresh;
// structs by their fields, clear_padding).
template <auto Make, class Out, class Run, class Want>
void transform_matches_the_host(Run run, Want want) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<Make>("cccl-struct-"), 0, kCounts,
                 [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   std::vector<Out> got[2];
                   int r = 0;
                   for (const auto* exe : {&fresh, &loaded}) {
                     const auto out = zeroed<Out>(n);
                     ASSERT_EQ(run(*exe, n, keep, out->get(), stream), CUDA_SUCCESS);
                     ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
                     got[r] = copy_to_host<Out>(*out, n);
                     clear_padding(got[r++]);
                   }
                   auto w = want(n);
                   clear_padding(w);
                   expect_fresh_and_loaded(got, w);
                 });
}

TEST(StructElementwiseGpu, AStructReadMatchesTheHostFreshAndLoaded) {
  transform_matches_the_host<&transform_weight, double>(
      [](const auto& exe, std::uint64_t n, auto& keep, void* out, CUstream s) {
        return exe(on_device(random_payloads(n, static_cast<std::uint32_t>(n) + 41), keep), out, n, s);
      },
      [](std::uint64_t n) {
        std::vector<double> w;
        for (const HostPayload& p : random_payloads(n, static_cast<std::uint32_t>(n) + 41)) w.push_back(2 * p.weight);
        return w;
      });
}

TEST(StructElementwiseGpu, AStructWrittenMatchesTheHostFreshAndLoaded) {
  auto values = [](std::uint64_t n) { return random_values<float>(n, -500, 500, static_cast<std::uint32_t>(n) + 43); };
  auto indices = [](std::uint64_t n) {
    return random_values<std::int64_t>(n, -1000000, 1000000, static_cast<std::uint32_t>(n) + 47);
  };
  transform_matches_the_host<&transform_pair, vi64>(
      [&](const auto& exe, std::uint64_t n, auto& keep, void* out, CUstream s) {
        return exe(on_device(values(n), keep), on_device(indices(n), keep), out, n, s);
      },
      [&](std::uint64_t n) {
        const auto v = values(n);
        const auto i = indices(n);
        std::vector<vi64> w(n);
        for (std::uint64_t k = 0; k < n; ++k) w[k] = {v[k], i[k]};
        return w;
      });
}

TEST(StructElementwiseGpu, AZipReadAsAStructMatchesTheHostFreshAndLoaded) {
  auto values = [](std::uint64_t n) { return random_values<float>(n, -400, 400, static_cast<std::uint32_t>(n) + 53); };
  transform_matches_the_host<&transform_weighted_positions, double>(
      [&](const auto& exe, std::uint64_t n, auto& keep, void* out, CUstream s) {
        const IteratorValue parts[] = {IteratorValue::array(on_device(values(n), keep)),
                                       IteratorValue::counting(std::int64_t{0})};
        return exe(IteratorValue::zip(parts, 2), out, n, s);
      },
      [&](std::uint64_t n) {
        const auto v = values(n);
        std::vector<double> w(n);
        for (std::uint64_t k = 0; k < n; ++k) w[k] = static_cast<double>(v[k]) * static_cast<double>(k);
        return w;
      });
}

}  // namespace
