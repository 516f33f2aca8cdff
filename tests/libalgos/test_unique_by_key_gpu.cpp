// unique_by_key on a GPU: results equal a host reference for integer and float key and
// value types of 1 to 8 bytes, 4- and 8-byte offsets and counts, equal_to and a custom
// equality, at 0, 1, 2, 1023, 1025, 2^20+3 and 2^26 items in runs of random length
// (single items, short runs, long runs; +0.0 and -0.0 keys in one run under equal_to);
// the number selected is read from device memory; fresh (build -> bind) and store-loaded
// (AlgorithmCache over a store) executables give bitwise-identical outputs. Skips
// without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "cccl_cache/algos/unique_by_key/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace ubk = cccl_cache::algos::unique_by_key;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

const Operator kEq = Operator::of(OpKind::equal_to);
const Operator kBucket = bucket_equality();

using S = ScalarType;
std::vector<ubk::Spec> all_specs() {
  return {
      {S::int32, S::int32, kEq, S::uint64, S::uint64},
      {S::float32, S::float64, kEq, S::uint32, S::int32},
      {S::int64, S::int8, kEq, S::uint64, S::int64},
      {S::uint8, S::int16, kEq, S::uint32, S::uint32},
      {S::int16, S::float32, kEq, S::uint64, S::uint64},
      {S::int32, S::uint32, kBucket, S::uint64, S::uint64},
  };
}

using Built = BuiltStore<ubk::Spec, ubk::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-unique-by-key-gpu", all_specs());
  return b;
}

template <class K, class V, class Sel>
void check_all(const ubk::Spec& spec, const ubk::Executable& fresh, const ubk::Executable& loaded,
               CUstream stream, std::mt19937_64& rng) {
  for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<K> k = keys_in_runs<K>(n, rng);
    std::vector<V> v(n);
    for (V& x : v) x = static_cast<V>(static_cast<std::int64_t>(rng() % 20001) - 10000);
    std::vector<K> want_k;
    std::vector<V> want_v;
    for (std::uint64_t i = 0; i < n; ++i)
      if (i == 0 || !same_key(spec.op, k[i - 1], k[i])) {
        want_k.push_back(k[i]);
        want_v.push_back(v[i]);
      }
    const std::uint64_t m = want_k.size();
    DeviceBuffer d_k(n * sizeof(K)), d_v(n * sizeof(V)), k_out(n * sizeof(K)), v_out(n * sizeof(V)),
        d_sel(sizeof(Sel));
    if (n > 0) {
      ASSERT_CU(cuMemcpyHtoD(d_k.ptr, k.data(), n * sizeof(K)));
      ASSERT_CU(cuMemcpyHtoD(d_v.ptr, v.data(), n * sizeof(V)));
    }
    struct Out {
      Sel selected;
      std::vector<K> k;
      std::vector<V> v;
    };
    auto run = [&](const ubk::Executable& exe) {
      EXPECT_EQ(cuMemsetD8(d_sel.ptr, 0xab, sizeof(Sel)), CUDA_SUCCESS);
      EXPECT_EQ(cuMemsetD8(k_out.ptr, 0xab, n * sizeof(K)), CUDA_SUCCESS);
      query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
        return exe(temp, bytes, d_k.get(), d_v.get(), k_out.get(), v_out.get(), d_sel.get(), n,
                   stream);
      });
      Out o{};
      EXPECT_EQ(cuMemcpyDtoH(&o.selected, d_sel.ptr, sizeof(Sel)), CUDA_SUCCESS);
      o.k = read_device<K>(k_out.ptr, m);
      o.v = read_device<V>(v_out.ptr, m);
      return o;
    };
    const Out got = run(fresh);
    ASSERT_EQ(static_cast<std::uint64_t>(got.selected), m) << "number selected";
    ASSERT_EQ(std::memcmp(got.k.data(), want_k.data(), m * sizeof(K)), 0) << "keys differ from the host reference";
    ASSERT_EQ(std::memcmp(got.v.data(), want_v.data(), m * sizeof(V)), 0) << "values differ from the host reference";
    const Out from_store = run(loaded);
    ASSERT_EQ(from_store.selected, got.selected);
    ASSERT_EQ(std::memcmp(from_store.k.data(), got.k.data(), m * sizeof(K)), 0) << "fresh and store-loaded differ";
    ASSERT_EQ(std::memcmp(from_store.v.data(), got.v.data(), m * sizeof(V)), 0) << "fresh and store-loaded differ";
  }
}

template <class K, class V>
void check_selected(const ubk::Spec& spec, const ubk::Executable& fresh, const ubk::Executable& loaded,
                    CUstream stream, std::mt19937_64& rng) {
  switch (spec.selected_type) {
    case S::int32: return check_all<K, V, std::int32_t>(spec, fresh, loaded, stream, rng);
    case S::uint32: return check_all<K, V, std::uint32_t>(spec, fresh, loaded, stream, rng);
    case S::int64: return check_all<K, V, std::int64_t>(spec, fresh, loaded, stream, rng);
    default: return check_all<K, V, std::uint64_t>(spec, fresh, loaded, stream, rng);
  }
}

}  // namespace

TEST(UniqueByKeyGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const ubk::Executable& f,
                                        const ubk::Executable& l, CUstream stream) {
    const ubk::Spec& spec = built().specs[i];
    std::mt19937_64 rng(77 + i);
    switch (i) {
      case 0: check_selected<std::int32_t, std::int32_t>(spec, f, l, stream, rng); break;
      case 1: check_selected<float, double>(spec, f, l, stream, rng); break;
      case 2: check_selected<std::int64_t, std::int8_t>(spec, f, l, stream, rng); break;
      case 3: check_selected<std::uint8_t, std::int16_t>(spec, f, l, stream, rng); break;
      case 4: check_selected<std::int16_t, float>(spec, f, l, stream, rng); break;
      default: check_selected<std::int32_t, std::uint32_t>(spec, f, l, stream, rng); break;
    }
  });
}

TEST(UniqueByKeyGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = ubk::bind(b.fresh[1], 0);  // 4-byte offsets
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, 1ull << 32, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(exe->temp_storage_bytes(1ull << 32), 0u);
  DeviceBuffer buf(64);
  bytes = 1;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), buf.get(), buf.get(), buf.get(), 100000, nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "too small temp storage";
  ubk::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, 1, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_GT(moved.temp_storage_bytes(5), 0u);
}
