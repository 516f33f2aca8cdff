// Segmented reduce on a GPU: results equal a host reference for integer and float
// element types, int32/uint32/int64/uint64 offsets, well-known and custom operators, at
// 0, 1, 2, 1023, 1025, 2^20+3 and 2^26 items in zero segments, one segment, many
// segments of mixed lengths (empty ones, small, medium and one holding half the items)
// and one segment per item (the largest segment counts); with and without CUB's
// max_segment_size guarantee; fresh (build -> bind) and store-loaded (AlgorithmCache over
// a store) executables give bitwise-identical outputs. Exact comparisons only: the
// operands keep every result exact in any order. Skips without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/algos/segmented_reduce/executable.hpp"
#include "gpu_support.hpp"
#include "segments.hpp"

namespace {

using namespace test_support;
namespace sr = cccl_cache::algos::segmented_reduce;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

const Operator kAbsMax = Operator::custom(
    "abs_max", "__device__ float abs_max(float a, float b) { return fmaxf(fabsf(a), fabsf(b)); }");
const Operator kAddLow = Operator::custom(
    "add_low", "__device__ long long add_low(long long a, long long b) { return (a + b) & 0xffffff; }");

std::vector<sr::Spec> all_specs() {
  return {
      {ScalarType::float32, Operator::plus(), ScalarType::int64},
      {ScalarType::float64, Operator::of(OpKind::minimum), ScalarType::uint32},
      {ScalarType::int32, Operator::plus(), ScalarType::int32},
      {ScalarType::int8, Operator::plus(), ScalarType::int64},  // int accumulator, int8 out
      {ScalarType::uint64, Operator::of(OpKind::maximum), ScalarType::uint64},
      {ScalarType::int32, Operator::of(OpKind::bit_xor), ScalarType::uint32},
      {ScalarType::float32, kAbsMax, ScalarType::int64},
      {ScalarType::int64, kAddLow, ScalarType::int32},
  };
}

using Built = BuiltStore<sr::Spec, sr::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-segmented-reduce-gpu", all_specs());
  return b;
}

// CUB's accumulator: int for plus over int8 (P2322), else the element type.
template <class T>
using Accum = std::conditional_t<std::is_same_v<T, std::int8_t>, int, T>;

// The host reference of one operator on the accumulator; the custom functions' own
// arithmetic.
template <class T>
auto combine(const sr::Spec& s, auto acc, T v) {
  using A = decltype(acc);
  switch (s.op.kind) {
    case OpKind::plus: return static_cast<A>(acc + v);
    case OpKind::minimum: return v < acc ? static_cast<A>(v) : acc;
    case OpKind::maximum: return acc < v ? static_cast<A>(v) : acc;
    default:
      if constexpr (std::is_integral_v<T>) {
        if (s.op.kind == OpKind::bit_xor) return static_cast<A>(acc ^ v);
        return static_cast<A>((static_cast<long long>(acc) + static_cast<long long>(v)) & 0xffffff);
      } else {
        return static_cast<A>(std::max(std::fabs(acc), std::fabs(v)));  // abs_max
      }
  }
}

template <class T>
T value(const sr::Spec& s, std::mt19937_64& rng) {
  const std::uint64_t r = rng();
  if constexpr (std::is_floating_point_v<T>) {
    if (s.op.kind == OpKind::plus) return static_cast<T>(0.5 * static_cast<int>(r % 5) - 1.0);
    return static_cast<T>(static_cast<std::int64_t>(r % 4001) - 2000) / 4;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(static_cast<std::int64_t>(r % 201) - 100);
  } else {
    return static_cast<T>(r);
  }
}

template <class T, class O>
void check_all(const sr::Spec& spec, const sr::Executable& fresh, const sr::Executable& loaded,
               CUstream stream, std::mt19937_64& rng) {
  for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26}) {
    std::vector<T> items(n);
    for (T& x : items) x = value<T>(spec, rng);
    const T init = spec.op.kind == OpKind::minimum ? T(1000) : spec.op.kind == OpKind::maximum ? T(3) : T(5);
    DeviceBuffer d_items(n * sizeof(T));
    if (n > 0) ASSERT_CU(cuMemcpyHtoD(d_items.ptr, items.data(), n * sizeof(T)));
    for (Layout layout : {Layout::none, Layout::one, Layout::mixed, Layout::singles}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", layout " + std::to_string(int(layout)));
      const Segments seg = segments(layout, n, rng);
      const std::size_t m = seg.begin.size();
      std::vector<O> begin(seg.begin.begin(), seg.begin.end()), end(seg.end.begin(), seg.end.end());
      std::vector<T> want(m);
      for (std::size_t i = 0; i < m; ++i) {
        Accum<T> acc = init;
        for (std::uint64_t j = seg.begin[i]; j < seg.end[i]; ++j) acc = combine<T>(spec, acc, items[j]);
        want[i] = static_cast<T>(acc);
      }
      DeviceBuffer d_begin(m * sizeof(O)), d_end(m * sizeof(O)), d_out(m * sizeof(T)), temp(1);
      if (m > 0) {
        ASSERT_CU(cuMemcpyHtoD(d_begin.ptr, begin.data(), m * sizeof(O)));
        ASSERT_CU(cuMemcpyHtoD(d_end.ptr, end.data(), m * sizeof(O)));
      }
      auto run = [&](const sr::Executable& exe, std::uint64_t max_segment_size) {
        std::size_t bytes = 0;
        EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, m, nullptr, nullptr, nullptr, stream), CUDA_SUCCESS);
        EXPECT_EQ(bytes, exe.temp_storage_bytes(m));
        EXPECT_EQ(cuMemsetD8(d_out.ptr, 0xab, m * sizeof(T)), CUDA_SUCCESS);
        EXPECT_EQ(exe(temp.get(), bytes, d_items.get(), d_out.get(), m, d_begin.get(), d_end.get(), &init,
                      stream, max_segment_size),
                  CUDA_SUCCESS);
        EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
        std::vector<T> got(m);
        if (m > 0) EXPECT_EQ(cuMemcpyDtoH(got.data(), d_out.ptr, m * sizeof(T)), CUDA_SUCCESS);
        return got;
      };
      const std::vector<T> got = run(fresh, 0);
      ASSERT_EQ(std::memcmp(got.data(), want.data(), m * sizeof(T)), 0) << "differs from the host reference";
      const std::vector<T> from_store = run(loaded, 0);
      ASSERT_EQ(std::memcmp(from_store.data(), got.data(), m * sizeof(T)), 0) << "fresh and store-loaded differ";
      // CUB's per-thread and per-warp paths under a max_segment_size guarantee.
      if (seg.longest >= 1 && seg.longest <= 512) {
        const std::vector<T> bounded = run(fresh, seg.longest);
        ASSERT_EQ(std::memcmp(bounded.data(), want.data(), m * sizeof(T)), 0) << "max_segment_size";
      }
    }
  }
}

template <class T>
void check_offsets(const sr::Spec& spec, const sr::Executable& fresh, const sr::Executable& loaded,
                   CUstream stream, std::mt19937_64& rng) {
  switch (spec.offset_type) {
    case ScalarType::int32: return check_all<T, std::int32_t>(spec, fresh, loaded, stream, rng);
    case ScalarType::uint32: return check_all<T, std::uint32_t>(spec, fresh, loaded, stream, rng);
    case ScalarType::int64: return check_all<T, std::int64_t>(spec, fresh, loaded, stream, rng);
    default: return check_all<T, std::uint64_t>(spec, fresh, loaded, stream, rng);
  }
}

}  // namespace

TEST(SegmentedReduceGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const sr::Executable& fresh,
                                        const sr::Executable& loaded, CUstream stream) {
    const sr::Spec& spec = built().specs[i];
    std::mt19937_64 rng(91 + i);
    switch (spec.type.scalar) {
      case ScalarType::float32: check_offsets<float>(spec, fresh, loaded, stream, rng); break;
      case ScalarType::float64: check_offsets<double>(spec, fresh, loaded, stream, rng); break;
      case ScalarType::int8: check_offsets<std::int8_t>(spec, fresh, loaded, stream, rng); break;
      case ScalarType::int32: check_offsets<std::int32_t>(spec, fresh, loaded, stream, rng); break;
      case ScalarType::int64: check_offsets<std::int64_t>(spec, fresh, loaded, stream, rng); break;
      default: check_offsets<std::uint64_t>(spec, fresh, loaded, stream, rng); break;
    }
  });
}

TEST(SegmentedReduceGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = sr::bind(b.fresh[0], 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, std::uint64_t{1} << 63, nullptr, nullptr, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  DeviceBuffer buf(64);
  bytes = 1;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), 1, buf.get(), buf.get(), nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE) << "no initial value";
  sr::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 1, nullptr, nullptr, nullptr, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(moved.temp_storage_bytes(5), 1u);
}
