// An argsort on a GPU: a radix sort of keys with a counting value input
// (Spec::values_in) gives the indices a host std::stable_sort of 0..n-1 by key gives
// (descending: by key, greater first, still stable), for float32, int32 and uint64 keys
// with int32 and int64 indices, both orders, both call forms, sizes around the
// single-tile limit and past a million; fresh (build -> bind) and store-loaded (store ->
// AlgorithmCache) executables give bitwise-identical outputs. Skips without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "cccl_cache/algos/radix_sort/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace rs = cccl_cache::algos::radix_sort;
using cccl_cache::algos::Iterator;
using cccl_cache::algos::IteratorValue;
using cccl_cache::algos::ScalarType;

std::vector<rs::Spec> argsort_specs() {
  std::vector<rs::Spec> out;
  for (ScalarType k : {ScalarType::float32, ScalarType::int32, ScalarType::uint64})
    for (ScalarType v : {ScalarType::int32, ScalarType::int64})
      for (bool descending : {false, true}) {
        rs::Spec s;
        s.key_type = k;
        s.value_type = v;
        s.descending = descending;
        s.values_in = Iterator::counting();
        out.push_back(s);
      }
  return out;
}

const auto& suite() {
  static const auto b = build_specs_for_gpu("cccl-cache-argsort-gpu", argsort_specs());
  return b;
}

constexpr std::uint64_t kSizes[] = {0, 1, 2, 1023, 1025, (1u << 20) + 3};

// Keys with long runs of equals (stability shows); floats without zeros or NaNs, whose
// ranks CUB's code paths treat differently (test_radix_sort_gpu covers them).
template <class K>
std::vector<K> make_keys(std::uint64_t n, std::mt19937_64& rng) {
  std::vector<K> keys(n);
  for (auto& k : keys) {
    const std::int64_t r = static_cast<std::int64_t>(rng() % 2001) - 1000;
    if constexpr (std::is_floating_point_v<K>) k = static_cast<K>(r == 0 ? 1 : r) / 8;
    else k = static_cast<K>(r);  // uint64: wraps, large values sort after small ones
  }
  return keys;
}

template <class K, class V>
std::vector<V> host_argsort(const std::vector<K>& keys, bool descending, V start) {
  std::vector<V> idx(keys.size());
  std::iota(idx.begin(), idx.end(), V{0});
  std::stable_sort(idx.begin(), idx.end(), [&](V a, V b) {
    return descending ? keys[a] > keys[b] : keys[a] < keys[b];
  });
  for (auto& i : idx) i = static_cast<V>(i + start);
  return idx;
}

// Runs exe on `keys`: the plain form with temp storage [values | CUB's], or the
// DoubleBuffers form; the sorted keys and values (on the host).
template <class K, class V>
void run(const rs::Executable& exe, const std::vector<K>& keys, V start, bool double_buffer,
         CUstream stream, std::vector<K>& keys_out, std::vector<V>& values_out) {
  const std::uint64_t n = keys.size();
  DeviceBuffer keys_in(n * sizeof(K)), keys_alt(n * sizeof(K)), values(n * sizeof(V)),
      values_alt(n * sizeof(V));
  copy_to_device(keys_in, keys);
  const IteratorValue counting = IteratorValue::counting(start);
  std::size_t bytes = 0;
  rs::DoubleBuffers buffers{{keys_in.get(), keys_alt.get()}, {values.get(), values_alt.get()}, 0};
  if (double_buffer) {
    ASSERT_CU(exe(nullptr, bytes, buffers, counting, n, 0, int(sizeof(K) * 8), stream));
    EXPECT_EQ(bytes, exe.temp_storage_bytes(n, 0, int(sizeof(K) * 8), true));
  } else {
    ASSERT_CU(exe(nullptr, bytes, keys_in.get(), keys_alt.get(), counting, values.get(), n, 0,
                  int(sizeof(K) * 8), stream));
    EXPECT_EQ(bytes, exe.temp_storage_bytes(n));
    // [values | CUB's]: the values take a whole number of 256-byte blocks.
    const std::size_t values_bytes = (n * sizeof(V) + 255) / 256 * 256;
    EXPECT_GT(bytes, values_bytes);
    // The calls without a counting start refuse an argsort spec.
    std::size_t b = bytes;
    EXPECT_EQ(exe(nullptr, b, keys_in.get(), keys_alt.get(), values.get(), values_alt.get(), n, 0,
                  int(sizeof(K) * 8), stream),
              CUDA_ERROR_INVALID_VALUE);
  }
  DeviceBuffer temp(bytes);
  ASSERT_EQ(temp.status, CUDA_SUCCESS);
  if (double_buffer) {
    ASSERT_CU(exe(temp.get(), bytes, buffers, counting, n, 0, int(sizeof(K) * 8), stream));
  } else {
    // Too little temp storage for the values and CUB's part is refused.
    std::size_t short_bytes = bytes - 1;
    if (n > 0)
      EXPECT_EQ(exe(temp.get(), short_bytes, keys_in.get(), keys_alt.get(), counting, values.get(),
                    n, 0, int(sizeof(K) * 8), stream),
                CUDA_ERROR_INVALID_VALUE);
    ASSERT_CU(exe(temp.get(), bytes, keys_in.get(), keys_alt.get(), counting, values.get(), n, 0,
                  int(sizeof(K) * 8), stream));
    buffers.selector = 1;  // the plain form's output: keys_alt, values
  }
  ASSERT_CU(cuStreamSynchronize(stream));
  const int s = buffers.selector;
  keys_out = read_device<K>(reinterpret_cast<CUdeviceptr>(buffers.keys[s]), n);
  // The plain form writes the values to d_values_out (`values`).
  values_out = read_device<V>(
      reinterpret_cast<CUdeviceptr>(double_buffer ? buffers.values[s] : values.get()), n);
}

TEST(ArgsortGpu, IndicesAreAHostStableSortsFreshAndLoadedAlike) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(suite(), [](std::size_t i, const rs::Executable& fresh,
                                        const rs::Executable& loaded, CUstream stream) {
    const rs::Spec& spec = suite().specs[i];
    with_host_type(spec.key_type, [&]<class K>(std::type_identity<K>) {
      with_count_type(spec.value_type.scalar, [&]<class V>(std::type_identity<V>) {
        std::mt19937_64 rng(7);
        for (std::uint64_t n : kSizes) {
          const std::vector<K> keys = make_keys<K>(n, rng);
          for (bool double_buffer : {false, true}) {
            const V start = double_buffer ? V{3} : V{0};
            SCOPED_TRACE("n=" + std::to_string(n) + (double_buffer ? " double buffers" : " plain"));
            std::vector<K> k1, k2;
            std::vector<V> v1, v2;
            run(fresh, keys, start, double_buffer, stream, k1, v1);
            run(loaded, keys, start, double_buffer, stream, k2, v2);
            const std::vector<V> want = host_argsort(keys, spec.descending, start);
            ASSERT_EQ(v1.size(), want.size());
            std::size_t wrong = 0;
            for (std::size_t j = 0; j < want.size(); ++j) wrong += v1[j] != want[j];
            EXPECT_EQ(wrong, 0u) << "indices differ from the host's stable sort";
            for (std::size_t j = 0; j < n && wrong == 0; ++j)
              ASSERT_EQ(k1[j], keys[static_cast<std::size_t>(want[j] - start)]) << j;
            EXPECT_TRUE(k1 == k2 && v1 == v2) << "fresh and store-loaded outputs differ";
          }
        }
      });
    });
  });
}

}  // namespace
