// three-way partition on a GPU: results equal a host reference for integer and float item
// types of 1 to 8 bytes, both offset types, every selected type, identity (nonzero items;
// -0.0 not selected, NaN selected) and custom predicates, at 0, 1, 2, 1023, 1025, 2^20+3
// and 2^26 items whose parts change size along the array; the two selected counts are
// read from device memory; fresh (build -> bind) and store-loaded (AlgorithmCache over a
// store) executables give bitwise-identical outputs. Skips without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "cccl_cache/algos/three_way_partition/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace twp = cccl_cache::algos::three_way_partition;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

const Operator kNonzero = Operator::of(OpKind::identity);
Operator custom(const std::string& name, const std::string& type, const std::string& body) {
  return Operator::custom(name, "__device__ bool " + name + "(" + type + " x) { return " + body + "; }");
}

using S = ScalarType;
std::vector<twp::Spec> all_specs() {
  return {
      {S::int32, custom("even", "int", "x % 2 == 0"), custom("small", "int", "x < 500"), S::int64, S::uint64},
      {S::float32, custom("positive", "float", "x > 0.0f"), kNonzero, S::int32, S::int32},
      {S::int64, custom("thirds", "long long", "x % 3 == 0"), kNonzero, S::int64, S::int64},
      {S::uint8, kNonzero, custom("odd", "unsigned char", "x % 2 != 0"), S::int32, S::uint32},
      {S::float64, custom("big", "double", "x > 100.0"), kNonzero, S::int64, S::uint64},
      {S::int16, kNonzero, kNonzero, S::int64, S::int32},
  };
}

using Built = BuiltStore<twp::Spec, twp::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-three-way-partition-gpu", all_specs());
  return b;
}

// The part (0 first, 1 second, 2 unselected) the host reference gives item x of spec i
// (all_specs order); identity: x converts to true (NaN too, -0.0 not).
template <class T>
int part_of(std::size_t spec, T x) {
  const bool nonzero = x != T(0);
  if constexpr (std::is_floating_point_v<T>) {
    const bool first = spec == 1 ? x > T(0) : x > T(100);  // specs 1 and 4
    return first ? 0 : nonzero ? 1 : 2;
  } else {
    const auto v = static_cast<long long>(x);
    switch (spec) {
      case 0: return v % 2 == 0 ? 0 : v < 500 ? 1 : 2;
      case 2: return v % 3 == 0 ? 0 : nonzero ? 1 : 2;
      case 3: return nonzero ? 0 : v % 2 != 0 ? 1 : 2;
      default: return nonzero ? 0 : 2;
    }
  }
}

// Items whose zero rate changes along the array (none to most), signed where the type is,
// so that tiles fill each part from none to all of their items; floats mix in -0.0 and NaN.
template <class T>
std::vector<T> items(std::uint64_t n, std::mt19937_64& rng) {
  std::vector<T> out(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    const bool zero = (r % 4) < (i * 5 / (n + 1)) % 5;
    const bool negative = std::is_signed_v<T> && (r >> 40) % 2;
    if constexpr (std::is_floating_point_v<T>) {
      const T v = static_cast<T>(static_cast<double>((r >> 8) % 2000 + 1) / 8);
      out[i] = zero ? (r % 7 == 0 ? T(-0.0) : T(0)) : (r % 101 == 0 ? std::numeric_limits<T>::quiet_NaN() : v);
      if (negative) out[i] = -out[i];
    } else {
      out[i] = static_cast<T>(zero ? 0 : 1 + (r >> 8) % 1000);
      if (negative) out[i] = static_cast<T>(-out[i]);
    }
  }
  return out;
}

template <class T, class Sel>
void check_all(std::size_t spec, const twp::Executable& fresh, const twp::Executable& loaded,
               CUstream stream, std::mt19937_64& rng) {
  for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<T> in = items<T>(n, rng);
    std::vector<T> want[3];
    for (const T& x : in) want[part_of(spec, x)].push_back(x);
    DeviceBuffer d_in(n * sizeof(T)), d_sel(2 * sizeof(Sel));
    DeviceBuffer d_out[3] = {DeviceBuffer(n * sizeof(T)), DeviceBuffer(n * sizeof(T)), DeviceBuffer(n * sizeof(T))};
    if (n > 0) ASSERT_CU(cuMemcpyHtoD(d_in.ptr, in.data(), n * sizeof(T)));
    struct Out {
      Sel selected[2];
      std::vector<T> parts[3];
    };
    auto run = [&](const twp::Executable& exe) {
      std::size_t bytes = 0;
      EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n, stream), CUDA_SUCCESS);
      EXPECT_EQ(bytes, exe.temp_storage_bytes(n));
      DeviceBuffer temp(bytes);
      EXPECT_EQ(cuMemsetD8(d_sel.ptr, 0xab, 2 * sizeof(Sel)), CUDA_SUCCESS);
      for (auto& o : d_out)
        if (n > 0) EXPECT_EQ(cuMemsetD8(o.ptr, 0xab, n * sizeof(T)), CUDA_SUCCESS);
      EXPECT_EQ(exe(temp.get(), bytes, d_in.get(), d_out[0].get(), d_out[1].get(), d_out[2].get(),
                    d_sel.get(), n, stream),
                CUDA_SUCCESS);
      EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
      Out o{};
      EXPECT_EQ(cuMemcpyDtoH(o.selected, d_sel.ptr, 2 * sizeof(Sel)), CUDA_SUCCESS);
      for (int p = 0; p < 3; ++p) o.parts[p] = read_device<T>(d_out[p].ptr, want[p].size());
      return o;
    };
    const Out got = run(fresh);
    ASSERT_EQ(static_cast<std::uint64_t>(got.selected[0]), want[0].size()) << "first part's count";
    ASSERT_EQ(static_cast<std::uint64_t>(got.selected[1]), want[1].size()) << "second part's count";
    for (int p = 0; p < 3; ++p)
      ASSERT_EQ(std::memcmp(got.parts[p].data(), want[p].data(), want[p].size() * sizeof(T)), 0)
          << "part " << p << " differs from the host reference";
    const Out from_store = run(loaded);
    ASSERT_EQ(std::memcmp(from_store.selected, got.selected, sizeof got.selected), 0);
    for (int p = 0; p < 3; ++p)
      ASSERT_EQ(std::memcmp(from_store.parts[p].data(), got.parts[p].data(), want[p].size() * sizeof(T)), 0)
          << "fresh and store-loaded differ in part " << p;
  }
}

}  // namespace

TEST(ThreeWayPartitionGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const twp::Executable& f, const twp::Executable& l,
                                        CUstream stream) {
    std::mt19937_64 rng(37 + i);
    with_host_type(built().specs[i].type.scalar, [&](auto item) {
      with_count_type(built().specs[i].selected_type, [&](auto count) {
        check_all<typename decltype(item)::type, typename decltype(count)::type>(i, f, l, stream, rng);
      });
    });
  });
}

TEST(ThreeWayPartitionGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = twp::bind(b.fresh[1], 0);  // int32 offset
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  const std::uint64_t too_many = std::uint64_t{1} << 31;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, too_many, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(exe->temp_storage_bytes(too_many), 0u);
  DeviceBuffer buf(64);
  bytes = 1;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), buf.get(), buf.get(), buf.get(), 100000, nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "too small temp storage";
  twp::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, 1, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_GT(moved.temp_storage_bytes(5), 0u);
}
