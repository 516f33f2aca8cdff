// Unary and binary transform on a GPU: outputs equal a host reference (bitwise) for
// sizes 0 .. 2^26, every element type, every operator kind, custom operators, mixed
// types, in place and from unaligned inputs; a fresh build bound directly and the
// same build loaded from a store through AlgorithmCache give identical outputs.
// Skips without a GPU. Every spec is built once, in parallel.
#include <cuda.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <random>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/algos/transform/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace tr = cccl_cache::algos::transform;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;
using S = ScalarType;

// 16-bit floats on the host: bits, converted through float. Inputs are small integers,
// so every result the tests compute is exact in them.
struct Half { std::uint16_t bits; };
struct BF16 { std::uint16_t bits; };
float to_float(BF16 v) { return std::bit_cast<float>(std::uint32_t{v.bits} << 16); }
BF16 to_bf16(float f) { return {static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16)}; }
float to_float(Half v) {
  const int e = (v.bits >> 10) & 31, m = v.bits & 1023;
  const float mag = e == 0 ? std::ldexp(float(m), -24) : std::ldexp(float(m | 1024), e - 25);
  return (v.bits & 0x8000) ? -mag : mag;
}
Half to_half(float f) {  // exact values only (the tests' results)
  if (f == 0) return {static_cast<std::uint16_t>(std::signbit(f) ? 0x8000 : 0)};
  int e = 0;
  const float m = std::frexp(std::fabs(f), &e);  // f = m * 2^e, m in [0.5, 1)
  const auto bits = static_cast<std::uint16_t>(((e + 14) << 10) | (static_cast<int>(m * 2048) & 1023));
  return {static_cast<std::uint16_t>(bits | (f < 0 ? 0x8000 : 0))};
}
template <class T> auto load(T v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BF16>) return to_float(v);
  else return v;
}
template <class T, class V> T store(V v) {
  if constexpr (std::is_same_v<T, Half>) return to_half(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, BF16>) return to_bf16(static_cast<float>(v));
  else return static_cast<T>(v);
}

// The host reference of each operator kind (as CUB's function objects compute it).
template <class A, class B>
auto apply(OpKind k, A a, B b) {
  using R = decltype(a + b);
  switch (k) {
    case OpKind::plus: return static_cast<R>(a + b);
    case OpKind::minus: return static_cast<R>(a - b);
    case OpKind::multiplies: return static_cast<R>(a * b);
    case OpKind::minimum: return static_cast<R>(a < b ? a : b);
    case OpKind::maximum: return static_cast<R>(a < b ? b : a);
    case OpKind::logical_and: return static_cast<R>(a && b);
    case OpKind::logical_or: return static_cast<R>(a || b);
    case OpKind::divides: return static_cast<R>(a / b);
    case OpKind::equal_to: return static_cast<R>(a == b);
    case OpKind::not_equal_to: return static_cast<R>(a != b);
    case OpKind::less: return static_cast<R>(a < b);
    case OpKind::less_equal: return static_cast<R>(a <= b);
    case OpKind::greater: return static_cast<R>(a > b);
    case OpKind::greater_equal: return static_cast<R>(a >= b);
    default: break;
  }
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
    if (k == OpKind::bit_and) return static_cast<R>(a & b);
    if (k == OpKind::bit_or) return static_cast<R>(a | b);
    if (k == OpKind::bit_xor) return static_cast<R>(a ^ b);
    if (k == OpKind::modulus) return static_cast<R>(a % b);
  }
  return R{};
}

template <class T>
std::vector<T> inputs(std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const auto r = static_cast<std::int64_t>(rng() % 65536) - 32768;  // +-2^15: no overflow in T's ops
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BF16>) x = store<T>(float(r % 9));
    else if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(r) * T(0.25);
    else x = static_cast<T>(std::is_signed_v<T> || sizeof(T) > 2 ? r : r & 0x7f);
  }
  return v;
}

struct Dev : DeviceBuffer {
  explicit Dev(std::size_t bytes) : DeviceBuffer(bytes, 16) { EXPECT_EQ(status, CUDA_SUCCESS); }
};

template <class T> void upload(const Dev& d, const std::vector<T>& v, std::size_t offset = 0) {
  if (!v.empty()) EXPECT_EQ(cuMemcpyHtoD(d.ptr + offset, v.data(), v.size() * sizeof(T)), CUDA_SUCCESS);
}

// One spec with its host reference; `run` checks one executable at one size.
struct Case {
  std::string name;
  std::function<void(const void* exe, std::uint64_t n, int mode)> run;  // mode: 0 plain, 1 in place, 2 unaligned
  std::uint32_t arity = 1;
  tr::UnarySpec unary;
  tr::BinarySpec binary;
};

template <class In, class Out>
Case unary(S in, S out, Operator op, std::function<Out(In)> ref = {}) {
  Case c;
  c.unary = {{in}, out, op};
  c.name = tr::summary(c.unary);
  if (!ref) ref = [k = op.kind](In a) { return store<Out>(k == OpKind::negate ? -load(a) : load(a)); };
  c.run = [ref](const void* e, std::uint64_t n, int mode) {
    const auto& exe = *static_cast<const tr::Executable<1>*>(e);
    const std::size_t off = mode == 2 ? sizeof(In) : 0;
    const auto a = inputs<In>(n, 1);
    Dev din(n * sizeof(In) + off), dout(n * sizeof(Out) + off);
    upload(din, a, off);
    void* out = mode == 1 ? din.get(off) : dout.get(off);
    ASSERT_EQ(exe(din.get(off), out, n, nullptr), CUDA_SUCCESS);
    std::vector<Out> got(n);
    if (n) ASSERT_EQ(cuMemcpyDtoH(got.data(), reinterpret_cast<CUdeviceptr>(out), n * sizeof(Out)), CUDA_SUCCESS);
    for (std::uint64_t i = 0; i < n; ++i) {
      const Out want = ref(a[i]);
      ASSERT_EQ(std::memcmp(&got[i], &want, sizeof(Out)), 0) << "item " << i << " of " << n;
    }
  };
  return c;
}

template <class A, class B, class Out>
Case binary(S a_t, S b_t, S out_t, Operator op, std::function<Out(A, B)> ref = {}) {
  const bool divisor = op.kind == OpKind::divides || op.kind == OpKind::modulus;
  Case c;
  c.arity = 2;
  c.binary = {{a_t, b_t}, out_t, op};
  c.name = tr::summary(c.binary);
  if (!ref) ref = [k = op.kind](A a, B b) { return store<Out>(apply(k, load(a), load(b))); };
  c.run = [ref, divisor](const void* e, std::uint64_t n, int mode) {
    const auto& exe = *static_cast<const tr::Executable<2>*>(e);
    const std::size_t off = mode == 2 ? sizeof(A) : 0;
    const auto a = inputs<A>(n, 1);
    auto b = inputs<B>(n, 2);
    if (divisor)  // divides, modulus: no division by zero
      for (auto& x : b)
        if (load(x) == 0) x = store<B>(1);
    Dev da(n * sizeof(A) + off), db(n * sizeof(B)), dout(n * sizeof(Out));
    upload(da, a, off);
    upload(db, b);
    void* out = mode == 1 ? da.get(off) : dout.get();
    ASSERT_EQ(exe(da.get(off), db.get(), out, n, nullptr), CUDA_SUCCESS);
    std::vector<Out> got(n);
    if (n) ASSERT_EQ(cuMemcpyDtoH(got.data(), reinterpret_cast<CUdeviceptr>(out), n * sizeof(Out)), CUDA_SUCCESS);
    for (std::uint64_t i = 0; i < n; ++i) {
      const Out want = ref(a[i], b[i]);
      ASSERT_EQ(std::memcmp(&got[i], &want, sizeof(Out)), 0) << "item " << i << " of " << n;
    }
  };
  return c;
}

std::vector<Case> all_cases() {
  using enum OpKind;
  std::vector<Case> c;
  auto both = [&]<class T>(S t) {  // every type: identity, negate, plus, multiplies
    c.push_back(unary<T, T>(t, t, Operator::of(identity)));
    c.push_back(unary<T, T>(t, t, Operator::of(negate)));
    c.push_back(binary<T, T, T>(t, t, t, Operator::of(plus)));
    c.push_back(binary<T, T, T>(t, t, t, Operator::of(multiplies)));
  };
  both.operator()<std::int8_t>(S::int8);
  both.operator()<std::int16_t>(S::int16);
  both.operator()<std::int32_t>(S::int32);
  both.operator()<std::int64_t>(S::int64);
  both.operator()<std::uint8_t>(S::uint8);
  both.operator()<std::uint16_t>(S::uint16);
  both.operator()<std::uint32_t>(S::uint32);
  both.operator()<std::uint64_t>(S::uint64);
  both.operator()<float>(S::float32);
  both.operator()<double>(S::float64);
  both.operator()<Half>(S::float16);
  both.operator()<BF16>(S::bfloat16);
  for (auto k : {minus, minimum, maximum, logical_and, logical_or})
    c.push_back(binary<float, float, float>(S::float32, S::float32, S::float32, Operator::of(k)));
  for (auto k : {bit_and, bit_or, bit_xor, minimum}) {
    c.push_back(binary<std::int32_t, std::int32_t, std::int32_t>(S::int32, S::int32, S::int32, Operator::of(k)));
    c.push_back(binary<std::uint8_t, std::uint8_t, std::uint8_t>(S::uint8, S::uint8, S::uint8, Operator::of(k)));
  }
  c.push_back(binary<BF16, BF16, BF16>(S::bfloat16, S::bfloat16, S::bfloat16, Operator::of(maximum)));
  c.push_back(binary<std::int32_t, float, double>(S::int32, S::float32, S::float64, Operator::of(multiplies)));
  c.push_back(binary<std::int64_t, std::int8_t, std::int64_t>(S::int64, S::int8, S::int64, Operator::of(minus)));
  c.push_back(unary<float, float>(S::float32, S::float32,
                                  Operator::custom("cube", "__device__ float cube(float x) { return x * x * x; }"),
                                  [](float x) { return x * x * x; }));
  c.push_back(unary<std::int64_t, std::int8_t>(S::int64, S::int8, Operator::of(identity)));
  // The kinds beyond reductions': comparisons into an integer, divides, modulus, the
  // unary logical_not and bit_not.
  for (auto k : {equal_to, not_equal_to, less, less_equal, greater, greater_equal})
    c.push_back(binary<float, float, std::int8_t>(S::float32, S::float32, S::int8, Operator::of(k)));
  c.push_back(binary<Half, Half, Half>(S::float16, S::float16, S::float16, Operator::of(less_equal)));
  c.push_back(binary<double, double, double>(S::float64, S::float64, S::float64, Operator::of(divides)));
  for (auto k : {divides, modulus})
    c.push_back(binary<std::int32_t, std::int32_t, std::int32_t>(S::int32, S::int32, S::int32, Operator::of(k)));
  c.push_back(unary<float, std::int32_t>(S::float32, S::int32, Operator::of(logical_not),
                                         [](float x) { return std::int32_t{!x}; }));
  c.push_back(unary<std::uint16_t, std::uint16_t>(S::uint16, S::uint16, Operator::of(bit_not),
                                                   [](std::uint16_t x) { return std::uint16_t(~x); }));
  c.push_back(binary<std::int32_t, std::int32_t, std::int64_t>(
      S::int32, S::int32, S::int64,
      Operator::custom("sat_diff", "__device__ long long sat_diff(int a, int b) { return a > b ? (long long)a - b : 0; }"),
      [](std::int32_t a, std::int32_t b) -> std::int64_t { return a > b ? std::int64_t{a} - b : 0; }));
  return c;
}

// Every case built once (in parallel); its fresh executable and its store-loaded one.
struct Bound {
  std::vector<Case> cases;
  std::vector<std::shared_ptr<const void>> fresh, loaded;
  std::string error;
};
const Bound& bound() {
  static const Bound b = [] {
    Bound r;
    r.cases = all_cases();
    auto store = open_temp_store("cccl-cache-transform-gpu");
    if (!store) return r.error = store.error().describe(), r;
    // The first cache builds and stores; the second finds every entry in the store.
    cccl_cache::algos::AlgorithmCache builder(*store), loader(*store);
    std::vector<std::future<std::string>> jobs;
    for (const Case& c : r.cases)
      jobs.push_back(std::async(std::launch::async, [&builder, &c] {
        auto ok = c.arity == 1 ? builder.prewarm(c.unary, gpu().cc).map([](bool) {})
                               : builder.prewarm(c.binary, gpu().cc).map([](bool) {});
        return ok ? std::string() : c.name + ": " + ok.error().describe();
      }));
    for (auto& j : jobs)
      if (auto e = j.get(); !e.empty() && r.error.empty()) r.error = e;
    if (!r.error.empty()) return r;
    for (const Case& c : r.cases) {
      auto fresh_and_loaded = [&](const auto& spec) {
        auto built = tr::build(spec, gpu().cc);
        if (!built) return r.error = c.name + ": " + built.error().describe(), void();
        auto exe = tr::bind(*built, 0);
        auto hit = loader.acquire(spec, 0);
        if (!exe || !hit) return r.error = c.name + ": bind failed", void();
        r.fresh.push_back(std::make_shared<std::decay_t<decltype(*exe)>>(std::move(*exe)));
        r.loaded.push_back(*hit);
      };
      if (c.arity == 1) fresh_and_loaded(c.unary); else fresh_and_loaded(c.binary);
      if (!r.error.empty()) return r;
    }
    const auto stats = loader.stats();
    if (stats.builds != 0) r.error = "the loader built instead of loading from the store";
    return r;
  }();
  return b;
}

TEST(TransformGpu, MatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  const Bound& b = bound();
  ASSERT_TRUE(b.error.empty()) << b.error;
  for (std::size_t i = 0; i < b.cases.size(); ++i) {
    SCOPED_TRACE(b.cases[i].name);
    for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3}) {
      SCOPED_TRACE(n);
      b.cases[i].run(b.loaded[i].get(), n, 0);
      if (n == 1025) b.cases[i].run(b.fresh[i].get(), n, 0);
      if (n == 1025 || n == (1ull << 20) + 3) b.cases[i].run(b.loaded[i].get(), n, 2);  // unaligned
    }
  }
}

TEST(TransformGpu, InPlaceAndLarge) {
  SKIP_WITHOUT_GPU();
  const Bound& b = bound();
  ASSERT_TRUE(b.error.empty()) << b.error;
  for (std::size_t i = 0; i < b.cases.size(); ++i) {
    const Case& c = b.cases[i];
    SCOPED_TRACE(c.name);
    const bool same_type = c.arity == 1 ? c.unary.out == c.unary.in[0] : c.binary.out == c.binary.in[0];
    if (same_type) c.run(b.loaded[i].get(), (1ull << 20) + 3, 1);
    const bool large = c.name == "binary_transform in1=float32 in2=float32 out=float32 op=plus" ||
                       c.name == "binary_transform in1=int64 in2=int64 out=int64 op=plus" ||
                       c.name == "unary_transform in=float32 out=float32 op=negate";
    if (large) {
      c.run(b.loaded[i].get(), 1ull << 26, 0);
      c.run(b.fresh[i].get(), 1ull << 26, 0);
    }
  }
}

TEST(TransformGpu, MovedFromExecutableRefusesCalls) {
  SKIP_WITHOUT_GPU();
  auto built = tr::build(tr::UnarySpec{}, gpu().cc);
  ASSERT_TRUE(built) << built.error().describe();
  auto exe = tr::bind(*built, 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  tr::Executable<1> moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, nullptr, 1, nullptr), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(moved(nullptr, nullptr, 0, nullptr), CUDA_SUCCESS);
}

}  // namespace
