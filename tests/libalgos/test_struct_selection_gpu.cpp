// Three-way partition and unique_by_key of struct items on a GPU (skips without one):
// 16-byte payloads partitioned from an array by two custom predicates, {value, index}
// structs read from a zip of a value array and a counting iterator and partitioned;
// unique_by_key of 12-byte keys (a custom equality) with 16-byte values, and of
// {value, index} keys from that zip (each run's first value with its position). Each
// against the host's in-order split or first-of-run, at 0, 1, 2, 1023, 1025, 2^20 + 3
// and 2^26 items, the counts with them, fresh (build -> bind) and store-loaded
// executables bitwise identical.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "struct_specs.hpp"
#include "three_way_partition_iterator_specs.hpp"
#include "zipped_gpu.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

static_assert(sizeof(HostPayload) == 16 && sizeof(vi64) == 16 && sizeof(HostKey3) == 12);

const std::uint64_t kCounts[] = {0, 1, 2, 1023, 1025, (1ull << 20) + 3, 1ull << 26};

// The three parts (first, second, unselected, each in input order) and the two counts.
template <class T>
struct Parts {
  std::vector<T> part[3];
  std::uint64_t counts[2] = {};
};

// The host's split of `items` by part_of (0, 1 or 2).
template <class T, class PartOf>
Parts<T> host_parts(const std::vector<T>& items, PartOf part_of) {
  Parts<T> p;
  for (const T& x : items) p.part[part_of(x)].push_back(x);
  p.counts[0] = p.part[0].size();
  p.counts[1] = p.part[1].size();
  return p;
}

// Partitions n items read through `in` on the device into three arrays of T; what they
// and the counts (uint64) hold.
template <class T>
Parts<T> partition_on(const three_way_partition::Executable& exe, Input in, std::uint64_t n,
                      CUstream stream) {
  std::unique_ptr<DeviceBuffer> out[3] = {zeroed<T>(n), zeroed<T>(n), zeroed<T>(n)};
  DeviceBuffer counts(2 * sizeof(std::uint64_t));
  query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
    return exe(temp, bytes, in, out[0]->get(), out[1]->get(), out[2]->get(), counts.get(), n, stream);
  });
  Parts<T> got;
  const auto c = copy_to_host<std::uint64_t>(counts, 2);
  got.counts[0] = c[0];
  got.counts[1] = c[1];
  const std::uint64_t sizes[3] = {c[0], c[1], n - std::min(n, c[0] + c[1])};
  for (int k = 0; k < 3; ++k) got.part[k] = copy_to_host<T>(*out[k], std::min(sizes[k], n));
  return got;
}

// got[0] equals `want` part for part and count for count; got[1] (store-loaded) the same;
// structs compared by their fields (clear_padding).
template <class T>
void expect_parts(const Parts<T> (&got)[2], Parts<T> want) {
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(got[r].counts[0], want.counts[0]) << "first count, run " << r;
    EXPECT_EQ(got[r].counts[1], want.counts[1]) << "second count, run " << r;
  }
  for (int k = 0; k < 3; ++k) {
    std::vector<T> pair[2] = {got[0].part[k], got[1].part[k]};
    for (auto* v : {&pair[0], &pair[1], &want.part[k]}) clear_padding(*v);
    expect_fresh_and_loaded(pair, want.part[k], k == 0 ? "first part" : k == 1 ? "second part" : "rest");
  }
}

TEST(StructPartitionGpu, PayloadsByTwoCustomPredicatesMatchTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<&partition_payload>("cccl-struct-"), 0, kCounts,
                 [](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   std::mt19937 rng(static_cast<std::uint32_t>(n) + 11);
                   std::vector<HostPayload> items(n);
                   for (std::uint64_t i = 0; i < n; ++i)
                     items[i] = {static_cast<double>(rng() % 1000) / 1000.0, static_cast<std::int64_t>(rng() % 97) - 48};
                   const void* d_in = on_device(items, keep);
                   const Parts<HostPayload> got[2] = {partition_on<HostPayload>(fresh, d_in, n, stream),
                                                      partition_on<HostPayload>(loaded, d_in, n, stream)};
                   expect_parts(got, host_parts(items, [](const HostPayload& p) {
                                  return p.weight > 0.5 ? 0 : p.id % 2 != 0 ? 1 : 2;
                                }));
                 });
}

TEST(StructPartitionGpu, ValuesWithTheirPositionsFromAZipMatchTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<&partition_positions>("cccl-struct-"), 0, kCounts,
                 [](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   std::mt19937 rng(static_cast<std::uint32_t>(n) + 13);
                   Zipped z(n, keep, [&] { return static_cast<float>(static_cast<int>(rng() % 200) - 100) / 4.0f; });
                   const Input in = z.input();
                   const std::vector<vi64>& items = z.items;
                   const Parts<vi64> got[2] = {partition_on<vi64>(fresh, in, n, stream),
                                               partition_on<vi64>(loaded, in, n, stream)};
                   expect_parts(got, host_parts(items, [](const vi64& x) {
                                  return x.value > 0 ? 0 : x.index % 2 == 0 ? 1 : 2;
                                }));
                 });
}

// The first item of each run of keys `equal` holds for (unique_by_key's result): keys
// and values.
template <class K, class V, class Equal>
std::pair<std::vector<K>, std::vector<V>> host_unique(const std::vector<K>& keys, const std::vector<V>& values,
                                                      Equal equal) {
  std::pair<std::vector<K>, std::vector<V>> out;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (i == 0 || !equal(keys[i - 1], keys[i])) {
      out.first.push_back(keys[i]);
      out.second.push_back(values[i]);
    }
  return out;
}

// unique_by_key on the device of n keys and values read through `keys` and `values`, into
// arrays of K and V: the unique keys, their values and the count (uint64).
template <class K, class V>
struct Unique {
  std::vector<K> keys;
  std::vector<V> values;
  std::uint64_t count = 0;
};
template <class K, class V>
Unique<K, V> unique_on(const unique_by_key::Executable& exe, Input keys, Input values, std::uint64_t n,
                       CUstream stream) {
  const auto keys_out = zeroed<K>(n);
  const auto values_out = zeroed<V>(n);
  DeviceBuffer count(sizeof(std::uint64_t));
  query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
    return exe(temp, bytes, keys, values, keys_out->get(), values_out->get(), count.get(), n, stream);
  });
  Unique<K, V> got;
  got.count = copy_to_host<std::uint64_t>(count, 1)[0];
  const std::uint64_t m = std::min(got.count, n);
  got.keys = copy_to_host<K>(*keys_out, m);
  got.values = copy_to_host<V>(*values_out, m);
  return got;
}

template <class K, class V>
void expect_unique(const Unique<K, V> (&got)[2], std::pair<std::vector<K>, std::vector<V>> want) {
  EXPECT_EQ(got[0].count, want.first.size()) << "count";
  EXPECT_EQ(got[1].count, got[0].count) << "fresh and store-loaded counts differ";
  std::vector<K> keys[2] = {got[0].keys, got[1].keys};
  const std::vector<V> values[2] = {got[0].values, got[1].values};
  for (auto* v : {&keys[0], &keys[1], &want.first}) clear_padding(*v);
  expect_fresh_and_loaded(keys, want.first, "keys");
  expect_fresh_and_loaded(values, want.second, "values");
}

TEST(StructUniqueGpu, StructKeysAndValuesMatchTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<&unique_key3_payload>("cccl-struct-"), 0, kCounts,
                 [](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   std::mt19937 rng(static_cast<std::uint32_t>(n) + 17);
                   std::vector<HostKey3> keys(n);
                   for (std::uint64_t i = 0; i < n; ++i)  // runs of equal (major, minor), tags apart
                     keys[i] = {static_cast<std::int32_t>(rng() % 3), static_cast<float>(rng() % 2),
                                static_cast<std::uint32_t>(i)};
                   const auto values = random_payloads(n, static_cast<std::uint32_t>(n) + 19);
                   const void* d_keys = on_device(keys, keep);
                   const void* d_values = on_device(values, keep);
                   const Unique<HostKey3, HostPayload> got[2] = {
                       unique_on<HostKey3, HostPayload>(fresh, d_keys, d_values, n, stream),
                       unique_on<HostKey3, HostPayload>(loaded, d_keys, d_values, n, stream)};
                   expect_unique(got, host_unique(keys, values, host_key3_equal));
                 });
}

TEST(StructUniqueGpu, RunStartsWithTheirPositionsFromAZipMatchTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<&unique_run_starts>("cccl-struct-"), 0, kCounts,
                 [](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   std::mt19937 rng(static_cast<std::uint32_t>(n) + 23);
                   Zipped z(n, keep, [&] { return static_cast<float>(rng() % 4); });
                   const Input zipped = z.input();
                   const std::vector<vi64>& keys = z.items;
                   std::vector<std::int32_t> payload(n);
                   for (auto& p : payload) p = static_cast<std::int32_t>(rng());
                   const void* d_payload = on_device(payload, keep);
                   const Unique<vi64, std::int32_t> got[2] = {
                       unique_on<vi64, std::int32_t>(fresh, zipped, d_payload, n, stream),
                       unique_on<vi64, std::int32_t>(loaded, zipped, d_payload, n, stream)};
                   expect_unique(got, host_unique(keys, payload, [](const vi64& a, const vi64& b) {
                                   return a.value == b.value;
                                 }));
                 });
}

}  // namespace
