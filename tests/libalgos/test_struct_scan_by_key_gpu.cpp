// Scans by key of struct values on a GPU (skips without one): a running argmax per run of
// int32 keys (8-byte values: CUB's single-word tile state), an exclusive running
// count/min/max per run of 12-byte struct keys under a custom equality (12-byte values:
// the multi-word one), a running sum of 16-byte values aligned 4 per run of int64 keys
// (a 20-byte KeyValuePair per tile), and a running argmax with its position read from
// zip(float32, counting(int64)) (16 bytes aligned 8: a 24-byte pair); each against a host
// scan by key at 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26 items in runs of random length,
// fresh (build -> bind) and store-loaded executables bitwise identical.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "struct_specs.hpp"
#include "zipped_gpu.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

static_assert(sizeof(HostArgmax) == 8 && sizeof(HostStats3) == 12 && sizeof(HostQuad) == 16);

const std::uint64_t kCounts[] = {0, 1, 2, 1023, 1025, (1ull << 20) + 3, 1ull << 26};

// Run ids for n items: runs of 1 to 3000 items (many single items and short runs).
std::vector<std::int64_t> run_ids(std::uint64_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::int64_t> ids(n);
  std::int64_t id = 0;
  for (std::uint64_t i = 0; i < n;) {
    const std::uint64_t len = rng() % 4 == 0 ? 1 + rng() % 3000 : 1 + rng() % 8;
    for (std::uint64_t k = 0; k < len && i < n; ++k) ids[i++] = id;
    ++id;
  }
  return ids;
}

// The host's scan by key: each item's running op over its run (exclusive: of the items
// before it, from *init).
template <class K, class V, class Eq, class Op>
std::vector<V> host_scan_by_key(const std::vector<K>& keys, const std::vector<V>& values, Eq eq, Op op,
                                const V* init = nullptr) {
  std::vector<V> out(values.size());
  V acc{};
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool head = i == 0 || !eq(keys[i - 1], keys[i]);
    if (init != nullptr) {
      if (head) acc = *init;
      out[i] = acc;
      acc = op(acc, values[i]);
    } else {
      acc = head ? values[i] : op(acc, values[i]);
      out[i] = acc;
    }
  }
  return out;
}

// The fresh and the loaded executable's outputs of n items of V for keys and values
// (Inputs), with `init` for an exclusive spec.
template <class V, class Exe>
void scan_both(const Exe& fresh, const Exe& loaded, Input keys, Input values, std::uint64_t n,
               const V* init, CUstream stream, std::vector<V> (&got)[2]) {
  int r = 0;
  for (const Exe* exe : {&fresh, &loaded}) {
    const auto out = zeroed<V>(n);
    query_and_run(*exe, n, stream, [&](void* temp, std::size_t& bytes) {
      return (*exe)(temp, bytes, keys, values, out->get(), n, init, stream);
    });
    got[r++] = copy_to_host<V>(*out, n);
  }
}

bool same_run(std::int32_t a, std::int32_t b) { return a == b; }

TEST(StructScanByKeyGpu, RunningArgmaxPerRunOf8ByteValues) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<&scan_by_key_argmax>("cccl-struct-"), 0, kCounts,
                 [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   const std::vector<std::int64_t> ids = run_ids(n, 3 + static_cast<std::uint32_t>(n));
                   std::vector<std::int32_t> keys(ids.begin(), ids.end());
                   std::mt19937 rng(n + 5);
                   std::vector<HostArgmax> values(n);
                   // Few distinct values: ties (the lowest index wins) everywhere.
                   for (std::uint64_t i = 0; i < n; ++i)
                     values[i] = {static_cast<float>(rng() % 31), static_cast<std::int32_t>(i)};
                   std::vector<HostArgmax> got[2];
                   scan_both<HostArgmax>(fresh, loaded, on_device(keys, keep), on_device(values, keep), n,
                                         nullptr, stream, got);
                   expect_fresh_and_loaded(got, host_scan_by_key(keys, values, same_run, host_argmax));
                 });
}

TEST(StructScanByKeyGpu, ExclusiveCountMinMaxPerRunOf12ByteKeysAndValues) {
  SKIP_WITHOUT_GPU();
  for_each_count(
      built_once<&scan_by_key_key3_stats3>("cccl-struct-"), 0, kCounts,
      [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
        // Keys of one run share (major, minor) and differ in tag, which the equality ignores.
        const std::vector<std::int64_t> ids = run_ids(n, 7 + static_cast<std::uint32_t>(n));
        std::mt19937 rng(n + 11);
        std::vector<HostKey3> keys(n);
        std::vector<HostStats3> values(n);
        for (std::uint64_t i = 0; i < n; ++i) {
          keys[i] = {static_cast<std::int32_t>(ids[i] / 2), static_cast<float>(ids[i] % 2),
                     static_cast<std::uint32_t>(rng())};
          const float v = static_cast<float>(static_cast<int>(rng() % 20001) - 10000) * 0.25f;
          values[i] = {1, v, v};
        }
        const HostStats3 init{0, 1e30f, -1e30f};
        std::vector<HostStats3> got[2];
        scan_both<HostStats3>(fresh, loaded, on_device(keys, keep), on_device(values, keep), n, &init,
                              stream, got);
        expect_fresh_and_loaded(got, host_scan_by_key(keys, values, host_key3_equal, host_merge_stats, &init));
      });
}

TEST(StructScanByKeyGpu, RunningSumPerRunOf16ByteValuesAligned4) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<&scan_by_key_quads>("cccl-struct-"), 0, kCounts,
                 [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   std::vector<std::int64_t> keys = run_ids(n, 13 + static_cast<std::uint32_t>(n));
                   for (std::int64_t& k : keys) k = k * 3000000007ll - 5;  // beyond 32 bits
                   std::mt19937 rng(n + 17);
                   std::vector<HostQuad> values(n);
                   for (std::uint64_t i = 0; i < n; ++i)
                     values[i] = {static_cast<std::uint32_t>(rng()), 1, static_cast<std::uint32_t>(i),
                                  static_cast<std::uint32_t>(rng() % 7)};
                   std::vector<HostQuad> got[2];
                   scan_both<HostQuad>(fresh, loaded, on_device(keys, keep), on_device(values, keep), n,
                                       nullptr, stream, got);
                   expect_fresh_and_loaded(
                       got, host_scan_by_key(keys, values, [](std::int64_t a, std::int64_t b) { return a == b; },
                                             host_add_quad));
                 });
}

TEST(StructScanByKeyGpu, RunningArgmaxWithPositionsFromAZip) {
  SKIP_WITHOUT_GPU();
  for_each_count(built_once<&scan_by_key_zip_argmax>("cccl-struct-"), 0, kCounts,
                 [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
                   const std::vector<std::int64_t> ids = run_ids(n, 19 + static_cast<std::uint32_t>(n));
                   std::vector<std::int32_t> keys(ids.begin(), ids.end());
                   std::mt19937 rng(n + 23);
                   Zipped z(n, keep, [&] { return static_cast<float>(rng() % 17); });
                   std::vector<vi64> got[2];
                   scan_both<vi64>(fresh, loaded, on_device(keys, keep), z.input(), n, nullptr, stream, got);
                   for (auto& g : got) clear_padding(g);
                   const auto argmax64 = [](const vi64& a, const vi64& b) {
                     if (a.value != b.value) return a.value > b.value ? a : b;
                     return a.index < b.index ? a : b;
                   };
                   std::vector<vi64> want = host_scan_by_key(keys, z.items, same_run, argmax64);
                   clear_padding(want);
                   expect_fresh_and_loaded(got, want);
                 });
}

}  // namespace
