// Struct element types on a GPU (skips without one): merge sort of struct keys (keys
// only, and with struct values) by a custom comparator against a stable host sort, and
// select of struct items by a custom predicate against the host's copy_if, reduce of
// struct items (an argmax over {value, index}, a 12-byte count/min/max) against a host
// fold; fresh (build -> bind) and store-loaded executables give bitwise identical outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "struct_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

static_assert(sizeof(HostKey3) == 12 && alignof(HostKey3) == 4);
static_assert(sizeof(HostPayload) == 16 && alignof(HostPayload) == 8);
static_assert(sizeof(HostArgmax) == 8 && alignof(HostArgmax) == 4);
static_assert(sizeof(HostStats3) == 12 && alignof(HostStats3) == 4);

const std::size_t kCounts[] = {0, 1, 2, 1023, 1025, (std::size_t{1} << 20) + 3};

// Keys with many equal (major, minor) pairs, so that stability shows; tag = index.
std::vector<HostKey3> random_keys(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<HostKey3> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = {static_cast<std::int32_t>(rng() % 64) - 32, static_cast<float>(rng() % 8) * 0.5f,
            static_cast<std::uint32_t>(i)};
  return v;
}

template <auto Make>
const auto& built() {
  return built_once<Make>("cccl-struct-");
}

// Sorts keys (and values, when `values` is not empty) on the device; the outputs.
std::pair<std::vector<HostKey3>, std::vector<HostPayload>> sort_on(
    const merge_sort::Executable& exe, const std::vector<HostKey3>& keys,
    const std::vector<HostPayload>& values, CUstream stream) {
  const std::size_t n = keys.size();
  DeviceBuffer d_keys(n * sizeof(HostKey3)), d_values(values.size() * sizeof(HostPayload));
  copy_to_device(d_keys, keys);
  copy_to_device(d_values, values);
  std::size_t bytes = 0;
  EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, stream), CUDA_SUCCESS);
  DeviceBuffer temp(bytes);
  const void* v_in = values.empty() ? nullptr : d_values.get();
  void* v_out = values.empty() ? nullptr : d_values.get();
  EXPECT_EQ(exe(temp.get(), bytes, d_keys.get(), v_in, d_keys.get(), v_out, n, stream), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  return {copy_to_host<HostKey3>(d_keys, n), copy_to_host<HostPayload>(d_values, values.size())};
}

void check_sort(const merge_sort::Executable& fresh, const merge_sort::Executable& loaded,
                CUstream stream, bool with_values) {
  for (const std::size_t n : kCounts) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = random_keys(n, 3 + static_cast<std::uint32_t>(n));
    const auto values = with_values ? random_payloads(n, 5) : std::vector<HostPayload>{};
    // Stable: equal keys keep their input order (their tags, and their values).
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return host_key3_less(keys[a], keys[b]); });
    std::vector<HostKey3> want_keys(n);
    std::vector<HostPayload> want_values(values.size());
    for (std::size_t i = 0; i < n; ++i) {
      want_keys[i] = keys[order[i]];
      if (with_values) want_values[i] = values[order[i]];
    }
    const auto got = sort_on(fresh, keys, values, stream);
    EXPECT_TRUE(same_bytes(got.first, want_keys)) << "keys differ from the host's stable sort";
    EXPECT_TRUE(same_bytes(got.second, want_values)) << "values differ from the host's stable sort";
    const auto again = sort_on(loaded, keys, values, stream);
    EXPECT_TRUE(same_bytes(again.first, got.first)) << "fresh and store-loaded keys differ";
    EXPECT_TRUE(same_bytes(again.second, got.second)) << "fresh and store-loaded values differ";
  }
}

TEST(StructTypesGpu, MergeSortOfStructKeysMatchesAStableHostSortFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&sort_key3>(),
                            [](std::size_t, const merge_sort::Executable& fresh,
                               const merge_sort::Executable& loaded, CUstream stream) {
                              check_sort(fresh, loaded, stream, false);
                            });
}

TEST(StructTypesGpu, MergeSortOfStructPairsMatchesAStableHostSortFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&sort_key3_payload>(),
                            [](std::size_t, const merge_sort::Executable& fresh,
                               const merge_sort::Executable& loaded, CUstream stream) {
                              check_sort(fresh, loaded, stream, true);
                            });
}

// Selects on the device; the items selected.
std::vector<HostPayload> select_on(const select::Executable& exe, const std::vector<HostPayload>& items,
                                   CUstream stream) {
  const std::size_t n = items.size();
  DeviceBuffer d_in(n * sizeof(HostPayload)), d_out(n * sizeof(HostPayload)), d_count(8);
  copy_to_device(d_in, items);
  std::size_t bytes = 0;
  EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, nullptr, n, stream), CUDA_SUCCESS);
  DeviceBuffer temp(bytes);
  EXPECT_EQ(exe(temp.get(), bytes, d_in.get(), d_out.get(), d_count.get(), n, stream), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  const auto count = copy_to_host<std::uint64_t>(d_count, 1)[0];
  EXPECT_LE(count, n);
  return copy_to_host<HostPayload>(d_out, std::min<std::uint64_t>(count, n));
}

TEST(StructTypesGpu, SelectOfStructItemsMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&select_heavy>(), [](std::size_t, const select::Executable& fresh,
                                                       const select::Executable& loaded,
                                                       CUstream stream) {
    for (const std::size_t n : kCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const auto items = random_payloads(n, 9 + static_cast<std::uint32_t>(n));
      std::vector<HostPayload> want;
      std::copy_if(items.begin(), items.end(), std::back_inserter(want),
                   [](const HostPayload& p) { return p.weight > 0.5; });
      const auto got = select_on(fresh, items, stream);
      EXPECT_TRUE(same_bytes(got, want)) << "differs from the host's copy_if";
      EXPECT_TRUE(same_bytes(select_on(loaded, items, stream), got)) << "fresh and store-loaded differ";
    }
  });
}

// Reduces `items` from `init` on the device; the result.
template <class T>
T reduce_on(const reduce::Executable& exe, const std::vector<T>& items, const T& init, CUstream stream) {
  const std::size_t n = items.size();
  DeviceBuffer d_in(n * sizeof(T)), d_out(sizeof(T));
  copy_to_device(d_in, items);
  EXPECT_EQ(cuMemsetD8(d_out.ptr, 0xab, sizeof(T)), CUDA_SUCCESS);
  std::size_t bytes = 0;
  EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, n, nullptr, stream), CUDA_SUCCESS);
  EXPECT_EQ(bytes, exe.temp_storage_bytes(n));
  DeviceBuffer temp(bytes);
  EXPECT_EQ(exe(temp.get(), bytes, d_in.get(), d_out.get(), n, &init, stream), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  return copy_to_host<T>(d_out, 1)[0];
}

template <class T, class Fold>
void check_reduce(const reduce::Executable& fresh, const reduce::Executable& loaded, CUstream stream,
                  const T& init, Fold fold, T (*item)(std::mt19937&, std::size_t)) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1023},
                              std::size_t{1025}, (std::size_t{1} << 20) + 3, std::size_t{1} << 26}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::mt19937 rng(17 + static_cast<std::uint32_t>(n));
    std::vector<T> items(n);
    for (std::size_t i = 0; i < n; ++i) items[i] = item(rng, i);
    T want = init;
    for (const T& x : items) want = fold(want, x);
    const T got = reduce_on(fresh, items, init, stream);
    EXPECT_EQ(std::memcmp(&got, &want, sizeof(T)), 0) << "differs from the host's fold";
    const T again = reduce_on(loaded, items, init, stream);
    EXPECT_EQ(std::memcmp(&again, &got, sizeof(T)), 0) << "fresh and store-loaded differ";
  }
}

TEST(StructTypesGpu, ReduceArgmaxOfStructItemsMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&reduce_argmax>(), [](std::size_t, const reduce::Executable& fresh,
                                                        const reduce::Executable& loaded, CUstream stream) {
    // Few distinct values, so ties (the lowest index wins) are everywhere.
    check_reduce<HostArgmax>(fresh, loaded, stream, HostArgmax{-1e30f, -1}, host_argmax,
                             [](std::mt19937& rng, std::size_t i) {
                               return HostArgmax{static_cast<float>(rng() % 97), static_cast<std::int32_t>(i)};
                             });
  });
}

TEST(StructTypesGpu, ReduceOf12ByteStructItemsMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built<&reduce_stats3>(), [](std::size_t, const reduce::Executable& fresh,
                                                        const reduce::Executable& loaded, CUstream stream) {
    check_reduce<HostStats3>(fresh, loaded, stream, HostStats3{0, 1e30f, -1e30f}, host_merge_stats,
                             [](std::mt19937& rng, std::size_t) {
                               const float v = static_cast<float>(static_cast<int>(rng() % 20001) - 10000) * 0.25f;
                               return HostStats3{1, v, v};
                             });
  });
}

}  // namespace
