// for_each on a GPU (skips without one): operators that change an array's items in place
// (float32, int64 over an int32 count, struct items), a stateful operator over a counting
// iterator that scatters through its state (a device pointer), one whose 16-byte aligned
// state sits after the items' pointer, against host references for 0 .. 2^26 items; fresh
// (build -> bind) and store-loaded executables give identical bytes; misfit states and
// values of another kind are refused before any launch.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"

using namespace cccl_cache::algos;
using namespace test_support;
using for_each::Executable;
using for_each::Spec;

namespace {

using S = ScalarType;

const std::uint64_t kCounts[] = {0, 1, 2, 1023, 1025, (1u << 20) + 3, 1u << 26};

Spec affine() {  // x = 2x + 1 in place
  return {S::float32, Operator::custom("affine", "__device__ void affine(float& x) { x = x * 2.0f + 1.0f; }")};
}
Spec squares() {  // int64 items, an int32 count
  return {S::int64, Operator::custom("sq3", "__device__ void sq3(long long& x) { x = x * x - 3; }"), S::int32};
}
Spec scatter() {  // out[i] = 3i + 1 through the state's pointer, i from a counting iterator
  return {S::int64,
          Operator::custom("scatter3", "__device__ void scatter3(void* s, long long i) { (*(long long**)s)[i] = 3 * i + 1; }",
                           8, 8),
          S::uint64, Iterator::counting(S::int64)};
}
Spec scaled() {  // x = x * s[0] + s[1], a 16-byte state aligned 16 (after the 8-byte pointer: offset 16)
  return {S::float32,
          Operator::custom("scaled", "__device__ void scaled(void* s, float& x) { const float* k = (const float*)s; x = x * k[0] + k[1]; }",
                           16, 16)};
}
struct Pair {
  std::int32_t k;
  float v;
};
Spec pairs() {  // struct items: k negated, v doubled
  return {ElementType::structure("pair", "struct pair { int k; float v; };", 8, 4),
          Operator::custom("flip", "__device__ void flip(pair& p) { p.k = -p.k; p.v *= 2.0f; }")};
}

const auto& store() {
  static const auto b =
      build_specs_for_gpu("cccl-for-each-", std::vector<Spec>{affine(), squares(), scatter(), scaled(), pairs()});
  return b;
}

// Runs `exe` over a device copy of `in` (op_state `state`) and returns the items after it.
template <class T>
std::vector<T> run_in_place(const Executable& exe, const std::vector<T>& in, CUstream stream,
                            OpState state = {}) {
  DeviceBuffer d(std::max<std::size_t>(in.size(), 1) * sizeof(T));
  copy_to_device(d, in);
  EXPECT_EQ(exe(d.get(), in.size(), stream, state), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  return copy_to_host<T>(d, in.size());
}

// The in-place specs: every count, fresh and store-loaded, against `want(x)`.
template <class T, class Make, class Want>
void in_place(std::size_t index, Make make_input, Want want, OpState state = {}) {
  for_each_count(store(), index, kCounts,
                 [&](std::uint64_t n, const Executable& fresh, const Executable& loaded, auto&, CUstream stream) {
                   const std::vector<T> in = make_input(n);
                   std::vector<T> expected(in);
                   for (T& x : expected) x = want(x);
                   const std::vector<T> got[2] = {run_in_place(fresh, in, stream, state),
                                                  run_in_place(loaded, in, stream, state)};
                   expect_fresh_and_loaded(got, expected);
                 });
}

TEST(ForEachGpu, ChangesFloatItemsInPlace) {
  SKIP_WITHOUT_GPU();
  in_place<float>(
      0, [](std::uint64_t n) { return random_values<float>(n, -1000, 1000, 5); },
      [](float x) { return x * 2.0f + 1.0f; });
}

TEST(ForEachGpu, ChangesInt64ItemsInPlaceOverAnInt32Count) {
  SKIP_WITHOUT_GPU();
  in_place<std::int64_t>(
      1, [](std::uint64_t n) { return random_values<std::int64_t>(n, -3000000, 3000000, 6); },
      [](std::int64_t x) { return x * x - 3; });
}

TEST(ForEachGpu, ChangesStructItemsInPlace) {
  SKIP_WITHOUT_GPU();
  in_place<Pair>(
      4,
      [](std::uint64_t n) {
        std::vector<Pair> v(n);
        const auto ks = random_values<std::int32_t>(n, -1 << 20, 1 << 20, 8);
        for (std::size_t i = 0; i < n; ++i) v[i] = {ks[i], static_cast<float>(ks[i] % 1000) / 4};
        return v;
      },
      [](Pair p) { return Pair{-p.k, p.v * 2.0f}; });
}

// A 16-byte state aligned 16 after the items' pointer: two states, two results.
TEST(ForEachGpu, AlignedStateIsTheCallsOwn) {
  SKIP_WITHOUT_GPU();
  for (const auto& k : {std::array<float, 4>{3.0f, -1.0f, 0, 0}, std::array<float, 4>{-0.5f, 8.0f, 0, 0}}) {
    alignas(16) const std::array<float, 4> state = k;
    in_place<float>(
        3, [](std::uint64_t n) { return random_values<float>(n, -1000, 1000, 9); },
        [&](float x) { return x * k[0] + k[1]; }, OpState{state.data(), 16});
  }
}

// out[i - start] ... : the scatter writes out[i] = 3i + 1 for i in [start, start + n).
TEST(ForEachGpu, StatefulScatterOverACountingIterator) {
  SKIP_WITHOUT_GPU();
  for_each_count(store(), 2, kCounts,
                 [&](std::uint64_t n, const Executable& fresh, const Executable& loaded, auto&, CUstream stream) {
                   const std::int64_t start = 5;
                   std::vector<std::int64_t> want(n + start, -1);
                   for (std::uint64_t i = 0; i < n; ++i) want[start + i] = 3 * (start + std::int64_t(i)) + 1;
                   std::vector<std::int64_t> got[2];
                   for (int e = 0; e < 2; ++e) {
                     const Executable& exe = e == 0 ? fresh : loaded;
                     DeviceBuffer out((n + start) * 8);
                     ASSERT_CU(cuMemsetD8(out.ptr, 0xff, (n + start) * 8));
                     void* base = out.get();
                     ASSERT_EQ(exe(IteratorValue::counting(start), n, stream, {&base, 8}), CUDA_SUCCESS);
                     ASSERT_CU(cuStreamSynchronize(stream));
                     got[e] = copy_to_host<std::int64_t>(out, n + start);
                   }
                   expect_fresh_and_loaded(got, want);
                 });
}

TEST(ForEachGpu, MisfitStatesAndValuesAreRefusedBeforeALaunch) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(store(), [](std::size_t i, const Executable& exe, const Executable&, CUstream stream) {
    DeviceBuffer buf(64);
    const std::uint64_t eight = 0;
    if (i == 0) {  // stateless: no state taken; an array spec takes no iterator value
      EXPECT_EQ(exe(buf.get(), 4, stream, {&eight, 8}), CUDA_ERROR_INVALID_VALUE);
      EXPECT_EQ(exe(IteratorValue::counting(std::int64_t{0}), 4, stream), CUDA_ERROR_INVALID_VALUE);
    }
    if (i == 1)  // more items than its int32 count holds
      EXPECT_EQ(exe(buf.get(), std::uint64_t{1} << 31, stream), CUDA_ERROR_INVALID_VALUE);
    if (i == 2) {  // stateful: its state required, of its size; a counting value, not an array
      EXPECT_EQ(exe(IteratorValue::counting(std::int64_t{0}), 4, stream), CUDA_ERROR_INVALID_VALUE);
      EXPECT_EQ(exe(IteratorValue::counting(std::int64_t{0}), 4, stream, {&eight, 4}), CUDA_ERROR_INVALID_VALUE);
      void* p = buf.get();
      EXPECT_EQ(exe(p, 4, stream, {&p, 8}), CUDA_ERROR_INVALID_VALUE);
    }
    EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  });
}

}  // namespace
