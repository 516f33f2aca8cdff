// scan_by_key on a GPU: results equal a host reference for integer and float key and
// value types of 1 to 8 bytes, 4- and 8-byte offsets, inclusive and exclusive, equal_to
// and a custom equality, well-known and custom scan operators, at 0, 1, 2, 1023, 1025
// and 2^20+3 items in runs of random length (single items, short runs, runs of
// thousands, and one run over the whole input; +0.0 and -0.0 keys in one run under
// equal_to); fresh (build -> bind) and store-loaded (AlgorithmCache over a store)
// executables give bitwise-identical outputs. Float values use minimum and maximum only
// (exact in any order, so the host reference is bitwise). The reference accumulates in
// CUB's accumulator type (int for int8 and int16 values under plus: their sums overflow
// the value type) and converts each output to the value type, as CUB does. Skips
// without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "cccl_cache/algos/scan_by_key/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace sbk = cccl_cache::algos::scan_by_key;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

const Operator kEq = Operator::of(OpKind::equal_to);
const Operator kBucket = bucket_equality();
const Operator kXor = Operator::custom(
    "mix", "__device__ unsigned int mix(unsigned int a, unsigned int b) { return a ^ b; }");
const Operator kPlus = Operator::plus();
const Operator kMax = Operator::of(OpKind::maximum);
const Operator kMin = Operator::of(OpKind::minimum);

using S = ScalarType;
std::vector<sbk::Spec> all_specs() {
  return {
      {S::int32, S::int32, kEq, kPlus, false, S::uint64},
      {S::int32, S::int32, kEq, kPlus, true, S::uint64},
      {S::int64, S::float64, kEq, kMax, false, S::uint32},
      {S::uint8, S::int16, kEq, kPlus, true, S::uint32},
      {S::int32, S::uint32, kBucket, kXor, false, S::uint64},
      {S::float32, S::float32, kEq, kMin, true, S::uint64},
      {S::int16, S::int64, kEq, Operator::of(OpKind::multiplies), false, S::uint64},
      {S::int16, S::int8, kEq, kPlus, false, S::uint64},
  };
}

using Built = BuiltStore<sbk::Spec, sbk::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-scan-by-key-gpu", all_specs());
  return b;
}

// The spec's operator on the host, in the accumulator type A; integer sums and products
// wrap (computed unsigned: the same bits in any order).
template <class V>
V apply(const sbk::Spec& spec, V a, V b) {
  using W = typename std::conditional_t<std::is_integral_v<V>, std::make_unsigned<V>,
                                        std::type_identity<V>>::type;
  switch (spec.op.kind) {
    case OpKind::plus: return static_cast<V>(static_cast<W>(static_cast<W>(a) + static_cast<W>(b)));
    case OpKind::multiplies: return static_cast<V>(static_cast<W>(static_cast<W>(a) * static_cast<W>(b)));
    case OpKind::maximum: return a < b ? b : a;
    case OpKind::minimum: return b < a ? b : a;
    default:
      if constexpr (std::is_integral_v<V>) return static_cast<V>(a ^ b);  // kXor
      ADD_FAILURE() << "no host operator";
      return a;
  }
}

template <class V>
V value(std::mt19937_64& rng, bool multiplies) {
  if (multiplies) return static_cast<V>(1 + rng() % 3);
  return static_cast<V>(static_cast<std::int64_t>(rng() % 20001) - 10000);
}

// A: CUB's accumulator for the spec, of the size its build recorded (`accum_size`).
template <class K, class V, class A = V>
void check_all(const sbk::Spec& spec, std::uint32_t accum_size, const sbk::Executable& fresh,
               const sbk::Executable& loaded, CUstream stream, std::mt19937_64& rng) {
  EXPECT_EQ(accum_size, sizeof(A));
  const V init = static_cast<V>(7);
  for (bool one_run : {false, true})
    for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (one_run ? ", one run" : ""));
      const std::vector<K> k = keys_in_runs<K>(n, rng, one_run);
      std::vector<V> v(n);
      for (V& x : v) x = value<V>(rng, spec.op.kind == OpKind::multiplies);
      std::vector<A> acc(n);
      std::vector<V> want(n);
      for (std::uint64_t i = 0; i < n; ++i) {
        const bool head = i == 0 || !same_key(spec.equality, k[i - 1], k[i]);
        if (spec.exclusive)
          acc[i] = head ? A(init) : apply<A>(spec, acc[i - 1], A(v[i - 1]));
        else
          acc[i] = head ? A(v[i]) : apply<A>(spec, acc[i - 1], A(v[i]));
        want[i] = static_cast<V>(acc[i]);
      }
      DeviceBuffer d_k(n * sizeof(K)), d_v(n * sizeof(V)), d_out(n * sizeof(V));
      if (n > 0) {
        ASSERT_CU(cuMemcpyHtoD(d_k.ptr, k.data(), n * sizeof(K)));
        ASSERT_CU(cuMemcpyHtoD(d_v.ptr, v.data(), n * sizeof(V)));
      }
      auto run = [&](const sbk::Executable& exe) {
        if (n > 0) EXPECT_EQ(cuMemsetD8(d_out.ptr, 0xab, n * sizeof(V)), CUDA_SUCCESS);
        query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return exe(temp, bytes, d_k.get(), d_v.get(), d_out.get(), n,
                     spec.exclusive ? &init : nullptr, stream);
        });
        return read_device<V>(d_out.ptr, n);
      };
      const std::vector<V> got = run(fresh);
      ASSERT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(V)), 0)
          << "values differ from the host reference";
      const std::vector<V> from_store = run(loaded);
      ASSERT_EQ(std::memcmp(from_store.data(), got.data(), n * sizeof(V)), 0)
          << "fresh and store-loaded differ";
    }
}

}  // namespace

TEST(ScanByKeyGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const sbk::Executable& f,
                                        const sbk::Executable& l, CUstream stream) {
    const sbk::Spec& spec = built().specs[i];
    std::mt19937_64 rng(91 + i);
    const std::uint32_t a = built().fresh[i].policy.accum_size;
    switch (i) {
      case 0:
      case 1: check_all<std::int32_t, std::int32_t>(spec, a, f, l, stream, rng); break;
      case 2: check_all<std::int64_t, double>(spec, a, f, l, stream, rng); break;
      case 3: check_all<std::uint8_t, std::int16_t, int>(spec, a, f, l, stream, rng); break;
      case 4: check_all<std::int32_t, std::uint32_t>(spec, a, f, l, stream, rng); break;
      case 5: check_all<float, float>(spec, a, f, l, stream, rng); break;
      case 6: check_all<std::int16_t, std::int64_t>(spec, a, f, l, stream, rng); break;
      default: check_all<std::int16_t, std::int8_t, int>(spec, a, f, l, stream, rng); break;
    }
  });
}

TEST(ScanByKeyGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = sbk::bind(b.fresh[3], 0);  // 4-byte offsets, exclusive
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, 1ull << 32, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(exe->temp_storage_bytes(1ull << 32), 0u);
  DeviceBuffer buf(1 << 20);
  bytes = 1 << 20;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), buf.get(), 1000, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "an exclusive scan without its initial value";
  const std::int16_t init = 0;
  bytes = 1;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), buf.get(), 100000, &init, nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "too small temp storage";
  sbk::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, 1, nullptr, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_GT(moved.temp_storage_bytes(5), 0u);
}
