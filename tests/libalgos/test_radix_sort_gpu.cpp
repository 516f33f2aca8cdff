// Radix sort on a GPU: output equals a host std::stable_sort by the bits CUB sorts on
// (signed: sign bit flipped; floats: -0.0 == +0.0, NaNs by their bits; descending: the
// reverse, still stable), for every key type, keys and pairs, both orders, bit ranges,
// both call forms; fresh (build -> bind) and store-loaded (store -> AlgorithmCache)
// executables give bitwise-identical outputs. Skips without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/radix_sort/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace rs = cccl_cache::algos::radix_sort;
using cccl_cache::algos::ScalarType;
using Bytes = std::vector<unsigned char>;

rs::Spec spec(ScalarType key, ScalarType value = ScalarType::none, bool descending = false) {
  rs::Spec s;
  s.key_type = key;
  s.value_type = value;
  s.descending = descending;
  return s;
}

std::vector<rs::Spec> all_specs() {
  std::vector<rs::Spec> out;
  for (ScalarType k : {ScalarType::int8, ScalarType::uint8, ScalarType::int16, ScalarType::uint16,
                       ScalarType::int32, ScalarType::uint32, ScalarType::int64, ScalarType::uint64,
                       ScalarType::float16, ScalarType::bfloat16, ScalarType::float32,
                       ScalarType::float64})
    out.push_back(spec(k));
  for (ScalarType k : {ScalarType::uint16, ScalarType::int64, ScalarType::bfloat16, ScalarType::float32})
    out.push_back(spec(k, ScalarType::none, true));
  out.push_back(spec(ScalarType::uint32, ScalarType::uint32));
  out.push_back(spec(ScalarType::uint32, ScalarType::uint32, true));
  out.push_back(spec(ScalarType::int8, ScalarType::uint32));
  out.push_back(spec(ScalarType::float32, ScalarType::uint64, true));
  out.push_back(spec(ScalarType::float16, ScalarType::int16));
  out.push_back(spec(ScalarType::float64, ScalarType::uint8, true));
  return out;
}

// Every spec built for this GPU (in parallel), its fresh executable, and a store holding
// the builds, from which a second cache loads its own executables.
struct Suite {
  std::vector<rs::Spec> specs;
  std::vector<rs::Executable> fresh;
  std::shared_ptr<cccl_cache::Store> store;
  std::string error;
};
Suite& suite() {
  static Suite s = [] {
    auto built = build_into_temp_store<rs::BuildResult>(
        "cccl-cache-radix-gpu", all_specs(), [](const rs::Spec& sp) { return rs::build(sp, gpu().cc); },
        [](const rs::Spec& sp) { return rs::summary(sp); },
        [](cccl_cache::Store& store, const rs::Spec& sp, const rs::BuildResult& b) {
          return put_build(store, rs::cache_key(sp, gpu().cc), "radix_sort", rs::summary(sp),
                           b.record.toolchain, serialize(b));
        });
    Suite r;
    r.specs = std::move(built.specs);
    r.error = std::move(built.error);
    for (std::size_t i = 0; i < built.fresh.size() && r.error.empty(); ++i) {
      auto exe = rs::bind(built.fresh[i], 0);
      if (!exe) r.error = exe.error().describe();
      else r.fresh.push_back(std::move(*exe));
    }
    if (r.error.empty()) r.store = built.store;
    return r;
  }();
  return s;
}

// The bits CUB ranks a key by: its ordered form with both zeros made one (as +0.0, or
// as -0.0 with `zeros_as_minus`), then [begin, end). Which one CUB picks in a descending
// sort depends on its code path: its onesweep kernels compare the key, already inverted,
// with the ascending form of -0.0 (ProcessFloatMinusZero), so +0.0 becomes -0.0; the
// path for small inputs ranks both as +0.0 (seen on the H200: n = 1025 vs 2^20 + 3, run 3
// of 2026-12-01). On the full key both give one order; a partial
// bit range sees other digits (expect_sorted accepts either there).
std::uint64_t digit(const unsigned char* p, const rs::Spec& s, int begin, int end,
                    bool zeros_as_minus) {
  const std::size_t size = cccl_cache::algos::size_of(s.key_type);
  std::uint64_t bits = 0;
  std::memcpy(&bits, p, size);
  const std::uint64_t sign = std::uint64_t{1} << (size * 8 - 1);
  const std::uint64_t all = size == 8 ? ~0ull : (sign << 1) - 1;
  if (cccl_cache::algos::is_float(s.key_type)) {
    if (!zeros_as_minus && bits == sign) bits = 0;  // -0.0 as +0.0
    if (zeros_as_minus && bits == 0) bits = sign;   // +0.0 as -0.0
    bits = (bits & sign) ? (~bits & all) : (bits ^ sign);
  } else if (s.key_type == ScalarType::int8 || s.key_type == ScalarType::int16 ||
             s.key_type == ScalarType::int32 || s.key_type == ScalarType::int64) {
    bits ^= sign;
  }
  const int width = end - begin;
  return (bits >> begin) & (width == 64 ? ~0ull : (1ull << width) - 1);
}

struct Data {
  Bytes keys, values;
};

// Random bit patterns with many repeats (stability shows) and, for floats, ±0, ±inf and
// NaNs of both signs; values number the items.
Data make_data(const rs::Spec& s, std::uint64_t n, unsigned seed) {
  const std::size_t ks = cccl_cache::algos::size_of(s.key_type), vs = cccl_cache::algos::size_of(s.value_type);
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> pool(64);
  for (auto& p : pool) p = rng();
  const std::uint64_t sign = std::uint64_t{1} << (ks * 8 - 1);
  const std::uint64_t exp_all = ks == 2 && s.key_type == ScalarType::float16 ? 0x7c00
                                : ks == 2 ? 0x7f80 : ks == 4 ? 0x7f800000 : 0x7ff0000000000000ull;
  const std::uint64_t special[] = {0, sign, exp_all, exp_all | sign, exp_all | 1, exp_all | sign | 3, 1};
  Data d{Bytes(n * ks), Bytes(n * vs)};
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t k = rng();
    if (k % 2 == 0) k = pool[(k >> 8) % pool.size()];
    if (cccl_cache::algos::is_float(s.key_type) && rng() % 8 == 0) k = special[rng() % 7];
    std::memcpy(&d.keys[i * ks], &k, ks);
    std::memcpy(&d.values[i * vs], &i, vs);
  }
  return d;
}

Data reference(const rs::Spec& s, const Data& in, std::uint64_t n, int begin, int end,
               bool zeros_as_minus = false) {
  const std::size_t ks = cccl_cache::algos::size_of(s.key_type), vs = cccl_cache::algos::size_of(s.value_type);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> order(n);
  for (std::uint64_t i = 0; i < n; ++i) order[i] = {digit(&in.keys[i * ks], s, begin, end, zeros_as_minus), i};
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    return s.descending ? a.first > b.first : a.first < b.first;
  });
  Data out{Bytes(n * ks), Bytes(n * vs)};
  for (std::uint64_t i = 0; i < n; ++i) {
    std::memcpy(&out.keys[i * ks], &in.keys[order[i].second * ks], ks);
    std::memcpy(&out.values[i * vs], &in.values[order[i].second * vs], vs);
  }
  return out;
}

// Sorts `in` with `exe` in the plain or the DoubleBuffers form; the output read back.
Data run(const rs::Executable& exe, const Data& in, std::uint64_t n, int begin, int end,
         bool double_buffer) {
  const bool pairs = !exe.spec().keys_only();
  DeviceBuffer k0(in.keys.size()), k1(in.keys.size()), v0(in.values.size()), v1(in.values.size());
  EXPECT_EQ(cuMemcpyHtoD(k0.ptr, in.keys.data(), in.keys.size()), CUDA_SUCCESS);
  if (pairs) EXPECT_EQ(cuMemcpyHtoD(v0.ptr, in.values.data(), in.values.size()), CUDA_SUCCESS);
  std::size_t bytes = 0;
  rs::DoubleBuffers db{{k0.get(), k1.get()}, {v0.get(), v1.get()}, 0};
  auto call = [&](void* temp) {
    return double_buffer ? exe(temp, bytes, db, n, begin, end, nullptr)
                         : exe(temp, bytes, k0.get(), k1.get(), v0.get(), v1.get(), n, begin, end,
                               nullptr);
  };
  EXPECT_EQ(call(nullptr), CUDA_SUCCESS);
  EXPECT_EQ(bytes, exe.temp_storage_bytes(n, begin, end, double_buffer));
  DeviceBuffer temp(bytes);
  EXPECT_EQ(call(temp.get()), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  const int out = double_buffer ? db.selector : 1;
  Data r{Bytes(in.keys.size()), Bytes(in.values.size())};
  EXPECT_EQ(cuMemcpyDtoH(r.keys.data(), (out ? k1 : k0).ptr, r.keys.size()), CUDA_SUCCESS);
  if (pairs) EXPECT_EQ(cuMemcpyDtoH(r.values.data(), (out ? v1 : v0).ptr, r.values.size()), CUDA_SUCCESS);
  if (!double_buffer && n > 0) {  // the plain form leaves its input alone
    Bytes again(in.keys.size());
    EXPECT_EQ(cuMemcpyDtoH(again.data(), k0.ptr, again.size()), CUDA_SUCCESS);
    EXPECT_EQ(again, in.keys) << "input keys changed";
  }
  return r;
}

void expect_sorted(const rs::Executable& exe, std::uint64_t n, int begin, int end, bool db) {
  const rs::Spec& s = exe.spec();
  SCOPED_TRACE(rs::summary(s) + " n=" + std::to_string(n) + " bits " + std::to_string(begin) +
               ".." + std::to_string(end) + (db ? " double buffer" : " plain"));
  const Data in = make_data(s, n, unsigned(n) * 31 + unsigned(begin));
  const Data got = run(exe, in, n, begin, end, db);
  Data want = reference(s, in, n, begin, end);
  const bool partial = begin != 0 || end != exe.key_bits();
  if (s.descending && partial && cccl_cache::algos::is_float(s.key_type) &&
      (got.keys != want.keys || got.values != want.values))
    want = reference(s, in, n, begin, end, /*zeros_as_minus=*/true);
  EXPECT_TRUE(got.keys == want.keys) << "keys differ from the stable reference";
  if (!s.keys_only()) EXPECT_TRUE(got.values == want.values) << "values: not stable";
}

TEST(RadixSortGpu, EveryTypeOrderAndFormMatchesAStableSort) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(suite().error.empty()) << suite().error;
  for (const auto& exe : suite().fresh) {
    const int bits = exe.key_bits();
    for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3})
      for (bool db : {false, true}) expect_sorted(exe, n, 0, bits, db);
    for (std::uint64_t n : {1025ull, (1ull << 20) + 3}) {
      expect_sorted(exe, n, bits / 4, bits * 3 / 4 + 1, false);
      expect_sorted(exe, n, 1, bits, true);
      expect_sorted(exe, n, 0, 1, false);
    }
  }
}

TEST(RadixSortGpu, LargeSortsOf2Pow26) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(suite().error.empty()) << suite().error;
  for (const auto& exe : suite().fresh) {
    const auto& s = exe.spec();
    if ((s.key_type == ScalarType::float32 && s.keys_only() && !s.descending) ||
        (s.key_type == ScalarType::uint32 && !s.keys_only() && !s.descending))
      expect_sorted(exe, 1ull << 26, 0, exe.key_bits(), false);
  }
}

TEST(RadixSortGpu, StoreLoadedExecutablesMatchFreshOnesBitwise) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(suite().error.empty()) << suite().error;
  cccl_cache::algos::AlgorithmCache cache(suite().store);
  for (std::size_t i = 0; i < suite().specs.size(); ++i) {
    auto loaded = cache.acquire(suite().specs[i], 0);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    const auto& fresh = suite().fresh[i];
    EXPECT_EQ((*loaded)->policy(), fresh.policy());
    const std::uint64_t n = (1ull << 20) + 3;
    const Data in = make_data(fresh.spec(), n, 7);
    for (bool db : {false, true}) {
      const Data a = run(fresh, in, n, 0, fresh.key_bits(), db);
      const Data b = run(**loaded, in, n, 0, fresh.key_bits(), db);
      EXPECT_TRUE(a.keys == b.keys && a.values == b.values) << rs::summary(fresh.spec());
      EXPECT_EQ(fresh.temp_storage_bytes(n), (*loaded)->temp_storage_bytes(n));
    }
  }
  EXPECT_EQ(cache.stats().store_hits, suite().specs.size());
  EXPECT_EQ(cache.stats().builds, 0u);
}

TEST(RadixSortGpu, BadBitRangesAndSmallTempStorageAreInvalidValue) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(suite().error.empty()) << suite().error;
  const rs::Executable& exe = suite().fresh.back();
  std::size_t bytes = 0;
  for (auto [b, e] : {std::pair{0, 0}, std::pair{5, 4}, std::pair{-1, 8}, std::pair{0, 65}}) {
    EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 10, b, e, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    ASSERT_FALSE(exe.check_bits(b, e));
    EXPECT_NE(exe.check_bits(b, e).error().message.find("begin_bit"), std::string::npos);
  }
  const std::uint64_t n = 1 << 20;
  DeviceBuffer keys(n * 8), out(n * 8), temp(16);
  bytes = 16;
  EXPECT_EQ(exe(temp.get(), bytes, keys.get(), out.get(), nullptr, nullptr, n, 0, 64, nullptr),
            CUDA_ERROR_INVALID_VALUE);
}

}  // namespace
