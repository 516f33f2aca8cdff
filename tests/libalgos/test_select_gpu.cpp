// select on a GPU: results equal a host reference for integer and float item types of 1
// to 8 bytes, 4- and 8-byte counts, the identity predicate (nonzero items; -0.0 dropped,
// NaN kept) and custom predicates, at 0, 1, 2, 1023, 1025, 2^20+3 and 2^26 items with
// selection rates from none to all; the number selected is read from device memory;
// fresh (build -> bind) and store-loaded (AlgorithmCache over a store) executables give
// bitwise-identical outputs. Skips without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/select/build_result.hpp"
#include "cccl_cache/algos/select/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace sel = cccl_cache::algos::select;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

const Operator kNonzero = Operator::of(OpKind::identity);
const Operator kPositive =
    Operator::custom("positive", "__device__ bool positive(float x) { return x > 0.0f; }");
const Operator kThirds =
    Operator::custom("thirds", "__device__ bool thirds(long long x) { return x % 3 == 0; }");
const Operator kSmall = Operator::custom("small", "__device__ bool small(short x) { return x < 100; }");

using S = ScalarType;
std::vector<sel::Spec> all_specs() {
  return {
      {S::int32, kNonzero, S::int64, S::uint64},   {S::float32, kPositive, S::int64, S::int32},
      {S::int64, kThirds, S::int64, S::int64},     {S::uint8, kNonzero, S::int64, S::uint32},
      {S::float64, kNonzero, S::int64, S::uint64}, {S::int16, kSmall, S::int64, S::uint64},
  };
}

using Built = BuiltStore<sel::Spec, sel::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-select-gpu", all_specs());
  return b;
}

// The host's predicate for spec i (all_specs order).
template <class T>
bool keep(std::size_t spec, T x) {
  switch (spec) {
    case 1: return x > 0.0f;
    case 2: return static_cast<long long>(x) % 3 == 0;
    case 5: return x < 100;
    default: return x != T(0);  // identity: converts to true (NaN too, -0.0 not)
  }
}

// Items whose selection rate changes along the array (none, a few, half, most, all), so
// that tiles select 0..all of their items; floats mix in -0.0 and NaN.
template <class T>
std::vector<T> items(std::uint64_t n, std::mt19937_64& rng) {
  std::vector<T> out(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    const unsigned rate = static_cast<unsigned>((i * 5 / (n + 1)) % 5);  // 0..4
    const bool zero = (r % 4) >= rate;                                   // rate 4: never zero
    if constexpr (std::is_floating_point_v<T>) {
      const T v = static_cast<T>(static_cast<double>((r >> 8) % 2000 + 1) / 8);
      out[i] = zero ? (r % 7 == 0 ? T(-0.0) : T(0)) : (r % 101 == 0 ? std::numeric_limits<T>::quiet_NaN() : v);
      if (!zero && (r >> 40) % 2) out[i] = -out[i];
    } else {
      out[i] = static_cast<T>(zero ? 0 : 1 + (r >> 8) % 1000);
      if (!zero && std::is_signed_v<T> && (r >> 40) % 2) out[i] = static_cast<T>(-out[i]);
    }
  }
  return out;
}

template <class T, class Sel>
void check_all(std::size_t spec, const sel::Executable& fresh, const sel::Executable& loaded,
               CUstream stream, std::mt19937_64& rng) {
  for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<T> in = items<T>(n, rng);
    std::vector<T> want;
    for (const T& x : in)
      if (keep(spec, x)) want.push_back(x);
    const std::uint64_t m = want.size();
    DeviceBuffer d_in(n * sizeof(T)), d_out(n * sizeof(T)), d_sel(sizeof(Sel));
    if (n > 0) ASSERT_CU(cuMemcpyHtoD(d_in.ptr, in.data(), n * sizeof(T)));
    struct Out {
      Sel selected;
      std::vector<T> items;
    };
    auto run = [&](const sel::Executable& exe) {
      std::size_t bytes = 0;
      EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, nullptr, n, stream), CUDA_SUCCESS);
      EXPECT_EQ(bytes, exe.temp_storage_bytes(n));
      DeviceBuffer temp(bytes);
      EXPECT_EQ(cuMemsetD8(d_sel.ptr, 0xab, sizeof(Sel)), CUDA_SUCCESS);
      if (n > 0) EXPECT_EQ(cuMemsetD8(d_out.ptr, 0xab, n * sizeof(T)), CUDA_SUCCESS);
      EXPECT_EQ(exe(temp.get(), bytes, d_in.get(), d_out.get(), d_sel.get(), n, stream), CUDA_SUCCESS);
      EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
      Out o{};
      EXPECT_EQ(cuMemcpyDtoH(&o.selected, d_sel.ptr, sizeof(Sel)), CUDA_SUCCESS);
      o.items = read_device<T>(d_out.ptr, m);
      return o;
    };
    const Out got = run(fresh);
    ASSERT_EQ(static_cast<std::uint64_t>(got.selected), m) << "number selected";
    ASSERT_EQ(std::memcmp(got.items.data(), want.data(), m * sizeof(T)), 0) << "items differ from the host reference";
    const Out from_store = run(loaded);
    ASSERT_EQ(from_store.selected, got.selected);
    ASSERT_EQ(std::memcmp(from_store.items.data(), got.items.data(), m * sizeof(T)), 0)
        << "fresh and store-loaded differ";
  }
}

}  // namespace

TEST(SelectGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const sel::Executable& f, const sel::Executable& l,
                                        CUstream stream) {
    std::mt19937_64 rng(91 + i);
    with_host_type(built().specs[i].type.scalar, [&](auto item) {
      with_count_type(built().specs[i].selected_type, [&](auto count) {
        check_all<typename decltype(item)::type, typename decltype(count)::type>(i, f, l, stream, rng);
      });
    });
  });
}

TEST(SelectGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = sel::bind(b.fresh[0], 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, std::uint64_t{1} << 63, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(exe->temp_storage_bytes(std::uint64_t{1} << 63), 0u);
  DeviceBuffer buf(64);
  bytes = 1;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), buf.get(), 100000, nullptr), CUDA_ERROR_INVALID_VALUE)
      << "too small temp storage";
  sel::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, 1, nullptr), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_GT(moved.temp_storage_bytes(5), 0u);
}
