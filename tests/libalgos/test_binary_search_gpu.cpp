// Binary search on a GPU: lower and upper bounds equal std::lower_bound / upper_bound for
// integer and float types, every out type, less over ascending and greater over
// descending data and a custom comparator, at ranges of 0, 1, 2, 1023, 1025, 2^20+3 and
// 2^26 items with duplicates, for values below, above, between and equal to the range's;
// fresh (build -> bind) and store-loaded (AlgorithmCache over a store) executables give
// bitwise-identical outputs. Skips without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/binary_search/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace bs = cccl_cache::algos::binary_search;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

using S = ScalarType;
const Operator kLess = Operator::less();
const Operator kGreater = Operator::greater();
// Orders by the value's tens: equal tens compare equal (a strict weak ordering).
const Operator kByTens = Operator::custom(
    "by_tens", "__device__ bool by_tens(long long a, long long b) { return a / 10 < b / 10; }");

std::vector<bs::Spec> all_specs() {
  return {
      {S::int32, S::int64, kLess, false},       {S::int32, S::int64, kLess, true},
      {S::float32, S::uint64, kGreater, false}, {S::float32, S::uint32, kGreater, true},
      {S::uint8, S::int32, kLess, true},        {S::float64, S::int64, kLess, false},
      {S::int64, S::uint64, kByTens, true},
  };
}

using Built = BuiltStore<bs::Spec, bs::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-binary-search-gpu", all_specs());
  return b;
}

// The host comparator of spec `s` over T.
template <class T>
std::function<bool(T, T)> comparator(const bs::Spec& s) {
  if (s.comparator.kind == cccl_cache::algos::OpKind::greater) return std::greater<T>{};
  if (s.comparator.kind == cccl_cache::algos::OpKind::custom)
    return [](T a, T b) { return static_cast<long long>(a) / 10 < static_cast<long long>(b) / 10; };
  return std::less<T>{};
}

// n items of about n/3 + 1 distinct values (duplicates), sorted by `comp`; values around
// them: below the smallest, above the largest, between two items and equal to items.
template <class T>
void make_data(std::uint64_t n, std::mt19937_64& rng, const std::function<bool(T, T)>& comp,
               std::vector<T>& data, std::vector<T>& values) {
  const std::uint64_t distinct =
      std::min<std::uint64_t>(n / 3 + 1, sizeof(T) == 1 ? 100 : 1u << 30);
  data.resize(n);
  for (auto& x : data)
    x = static_cast<T>(10 + 2 * (rng() % distinct));  // even: odd values fall between
  std::sort(data.begin(), data.end(), comp);
  const std::uint64_t m = std::min<std::uint64_t>(2 * n + 16, 1u << 22);
  values.resize(m);
  for (auto& v : values) {
    const std::uint64_t r = rng();
    switch (r % 4) {
      case 0:
        v = static_cast<T>(r % 2 ? 0 : 11 + 2 * distinct + 3);
        break;  // below / above
      case 1:
        v = static_cast<T>(11 + 2 * ((r >> 8) % distinct));
        break;  // between
      default:
        v = n ? data[(r >> 8) % n] : static_cast<T>(12);
        break;  // equal
    }
  }
}

template <class T, class Out>
void check_all(const bs::Spec& spec, const bs::Executable& fresh, const bs::Executable& loaded,
               CUstream stream, std::mt19937_64& rng) {
  const auto comp = comparator<T>(spec);
  for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<T> data, values;
    make_data<T>(n, rng, comp, data, values);
    const std::uint64_t m = values.size();
    std::vector<Out> want(m);
    for (std::uint64_t i = 0; i < m; ++i) {
      const auto it = spec.upper ? std::upper_bound(data.begin(), data.end(), values[i], comp)
                                 : std::lower_bound(data.begin(), data.end(), values[i], comp);
      want[i] = static_cast<Out>(it - data.begin());
    }
    DeviceBuffer d_data(n * sizeof(T)), d_values(m * sizeof(T)), d_out(m * sizeof(Out));
    if (n > 0) ASSERT_CU(cuMemcpyHtoD(d_data.ptr, data.data(), n * sizeof(T)));
    ASSERT_CU(cuMemcpyHtoD(d_values.ptr, values.data(), m * sizeof(T)));
    auto run = [&](const bs::Executable& exe) {
      std::size_t bytes = 0;
      EXPECT_EQ(exe(nullptr, bytes, nullptr, n, nullptr, m, nullptr, stream), CUDA_SUCCESS);
      EXPECT_EQ(bytes, exe.temp_storage_bytes());
      DeviceBuffer temp(bytes);
      EXPECT_EQ(cuMemsetD8(d_out.ptr, 0xab, m * sizeof(Out)), CUDA_SUCCESS);
      EXPECT_EQ(exe(temp.get(), bytes, d_data.get(), n, d_values.get(), m, d_out.get(), stream),
                CUDA_SUCCESS);
      EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
      return read_device<Out>(d_out.ptr, m);
    };
    const std::vector<Out> got = run(fresh);
    for (std::uint64_t i = 0; i < m; ++i)
      ASSERT_EQ(got[i], want[i]) << "value " << +values[i] << " at " << i
                                 << " differs from the host reference";
    const std::vector<Out> from_store = run(loaded);
    ASSERT_EQ(std::memcmp(from_store.data(), got.data(), m * sizeof(Out)), 0)
        << "fresh and store-loaded differ";
  }
}

}  // namespace

TEST(BinarySearchGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const bs::Executable& f,
                                        const bs::Executable& l, CUstream stream) {
    std::mt19937_64 rng(53 + i);
    const bs::Spec& spec = built().specs[i];
    with_host_type(spec.type.scalar, [&](auto item) {
      with_count_type(spec.out_type, [&](auto out) {
        check_all<typename decltype(item)::type, typename decltype(out)::type>(spec, f, l, stream,
                                                                               rng);
      });
    });
  });
}

TEST(BinarySearchGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = bs::bind(b.fresh[3], 0);  // uint32 out
  ASSERT_TRUE(exe) << exe.error().describe();
  EXPECT_EQ(exe->temp_storage_bytes(), 1u);
  DeviceBuffer buf(64);
  std::size_t bytes = 1;
  const std::uint64_t too_many = std::uint64_t{1} << 32;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), too_many, buf.get(), 4, buf.get(), nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ((*exe)(buf.get(), bytes, nullptr, 4, buf.get(), 4, buf.get(), nullptr),
            CUDA_ERROR_INVALID_VALUE);
  std::size_t none = 0;
  EXPECT_EQ((*exe)(buf.get(), none, buf.get(), 4, buf.get(), 4, buf.get(), nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "too small temp storage";
  bs::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, 1, nullptr, 1, nullptr, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(moved.temp_storage_bytes(), 1u);
}
