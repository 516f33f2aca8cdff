// Reduce on a GPU: results equal a host reference for every element type, every
// operator kind and custom operators, at 0, 1, 2, 1023, 1025, 2^20+3 and 2^26 items
// (exact where the arithmetic is: integers, min/max, logical, float sums of halves;
// within a bound for 16-bit float sums and float products); fresh (build -> bind) and
// store-loaded (AlgorithmCache over a store) executables give bitwise-identical
// outputs and temp-storage sizes. Skips without a GPU. Every spec is built once.
#include <cuda.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/reduce/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace rd = cccl_cache::algos::reduce;
using cccl_cache::algos::OpKind;
using cccl_cache::algos::Operator;
using cccl_cache::algos::ScalarType;

// Element values as the host models them: integers by their two's complement bits
// (sign-extended), floats as doubles.
bool is_float_type(ScalarType t) { return cccl_cache::algos::is_float(t); }
bool is_signed_int(ScalarType t) {
  return t == ScalarType::int8 || t == ScalarType::int16 || t == ScalarType::int32 ||
         t == ScalarType::int64;
}

void put_int(std::byte* at, std::uint64_t v, std::size_t size) { std::memcpy(at, &v, size); }
std::int64_t get_int(const std::byte* at, ScalarType t) {
  const std::size_t size = cccl_cache::algos::size_of(t);
  std::uint64_t v = 0;
  std::memcpy(&v, at, size);
  if (is_signed_int(t) && size < 8 && (v >> (8 * size - 1)) != 0) v |= ~std::uint64_t{0} << (8 * size);
  return static_cast<std::int64_t>(v);
}

// Exact for the values used here (representable in the type).
void put_float(std::byte* at, double v, ScalarType t) {
  const float f = static_cast<float>(v);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  if (t == ScalarType::float64) {
    std::memcpy(at, &v, 8);
  } else if (t == ScalarType::float32) {
    std::memcpy(at, &f, 4);
  } else if (t == ScalarType::bfloat16) {
    const std::uint16_t h = static_cast<std::uint16_t>(bits >> 16);
    std::memcpy(at, &h, 2);
  } else {  // float16: sign, 5-bit exponent (bias 15), 10-bit mantissa; normal values
    std::uint16_t h = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
    if (f != 0) {
      const int e = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
      h |= static_cast<std::uint16_t>((e << 10) | ((bits >> 13) & 0x3ff));
    }
    std::memcpy(at, &h, 2);
  }
}
double get_float(const std::byte* at, ScalarType t) {
  if (t == ScalarType::float64) {
    double d;
    std::memcpy(&d, at, 8);
    return d;
  }
  float f;
  if (t == ScalarType::float32) {
    std::memcpy(&f, at, 4);
    return f;
  }
  std::uint16_t h;
  std::memcpy(&h, at, 2);
  if (t == ScalarType::bfloat16) {
    const std::uint32_t bits = std::uint32_t{h} << 16;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double mag = e == 0 ? std::ldexp(m, -24) : e == 31 ? INFINITY : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -mag : mag;
}

Operator custom_for(ScalarType t) {
  if (t == ScalarType::float32)
    return Operator::custom("abs_max", "__device__ float abs_max(float a, float b) { "
                                       "return fmaxf(fabsf(a), fabsf(b)); }");
  return Operator::custom("add_low", "__device__ long long add_low(long long a, long long b) { "
                                     "return (a + b) & 0xffffff; }");
}

rd::Spec spec_of(ScalarType t, Operator op, ScalarType offset = ScalarType::uint64) {
  return rd::Spec{t, std::move(op), offset};
}

std::vector<rd::Spec> all_specs() {
  std::vector<rd::Spec> s;
  for (int t = 1; t <= 12; ++t) s.push_back(spec_of(static_cast<ScalarType>(t), Operator::plus()));
  for (OpKind k : {OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::bit_and,
                   OpKind::bit_or, OpKind::bit_xor, OpKind::logical_and, OpKind::logical_or})
    s.push_back(spec_of(ScalarType::int32, Operator::of(k)));
  for (OpKind k : {OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::logical_or})
    s.push_back(spec_of(ScalarType::float32, Operator::of(k)));
  s.push_back(spec_of(ScalarType::uint8, Operator::of(OpKind::bit_xor)));
  s.push_back(spec_of(ScalarType::int16, Operator::of(OpKind::multiplies)));
  s.push_back(spec_of(ScalarType::uint64, Operator::of(OpKind::maximum)));
  s.push_back(spec_of(ScalarType::float16, Operator::of(OpKind::maximum)));
  s.push_back(spec_of(ScalarType::bfloat16, Operator::of(OpKind::minimum)));
  s.push_back(spec_of(ScalarType::float64, Operator::of(OpKind::logical_and)));
  s.push_back(spec_of(ScalarType::float64, Operator::of(OpKind::minimum)));
  s.push_back(spec_of(ScalarType::float64, Operator::of(OpKind::maximum)));
  s.push_back(spec_of(ScalarType::float32, custom_for(ScalarType::float32)));
  s.push_back(spec_of(ScalarType::int64, custom_for(ScalarType::int64)));
  s.push_back(spec_of(ScalarType::float32, Operator::plus(), ScalarType::uint32));
  s.push_back(spec_of(ScalarType::int64, Operator::plus(), ScalarType::uint32));
  return s;
}

using Built = BuiltStore<rd::Spec, rd::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-reduce-gpu", all_specs());
  return b;
}

// Inputs that keep each operator's result meaningful, and its initial value.
struct Problem {
  std::vector<std::byte> items, init;
};
Problem make_problem(const rd::Spec& s, std::uint64_t n, std::mt19937_64& rng) {
  const std::size_t size = cccl_cache::algos::size_of(s.type.scalar);
  const bool flt = is_float_type(s.type.scalar);
  Problem p{std::vector<std::byte>(n * size), std::vector<std::byte>(size)};
  auto put = [&](std::byte* at, double f, std::uint64_t i) { flt ? put_float(at, f, s.type.scalar) : put_int(at, i, size); };
  const OpKind k = s.op.kind;
  for (std::uint64_t j = 0; j < n; ++j) {
    const std::uint64_t r = rng();
    std::byte* at = &p.items[j * size];
    if (k == OpKind::plus) put(at, 0.5 * static_cast<int>(r % 5) - 1.0, r % 201 - (is_signed_int(s.type.scalar) ? 100 : 0));
    else if (k == OpKind::multiplies) put(at, r % 3 == 0 ? 1.0 : (r % 3 == 1 ? 1 + 1.0 / 1024 : 1 - 1.0 / 1024), r % 4 == 0 ? ~std::uint64_t{0} : r % 4);  // ints: -1, 1, 2, 3
    else if (k == OpKind::logical_and) put(at, j + 1 == n && n > 1024 ? 0.0 : 1.0 + (r % 3), j + 1 == n && n > 1024 ? 0 : 1 + r % 3);
    else if (k == OpKind::logical_or) put(at, 0.0, 0);
    else if (k == OpKind::bit_and) put(at, 0, ~(std::uint64_t{1} << (r % 64)));
    else if (flt) put(at, static_cast<double>(static_cast<std::int64_t>(r % 4001) - 2000) / 4, 0);
    else put(at, 0, r);
  }
  if (k == OpKind::logical_or && n > 1024) put(&p.items[(n / 2) * size], 2.0, 2);
  const double finit = k == OpKind::plus ? 0.5 : k == OpKind::multiplies ? 1.0 : k == OpKind::custom ? -0.75 :
                       k == OpKind::logical_or ? 0.0 : 0.25;
  const std::uint64_t iinit = k == OpKind::plus ? 3 : k == OpKind::multiplies ? 2 : k == OpKind::bit_and ? ~std::uint64_t{4} :
                              k == OpKind::logical_and ? 1 : k == OpKind::logical_or ? 0 : k == OpKind::custom ? 5 : 0x5a;
  put(p.init.data(), finit, iinit);
  return p;
}

// The host reference: op(init, items...) with CUB's accumulator semantics; for floats a
// tolerance where the device's order of operations shows.
struct Want {
  std::vector<std::byte> exact;  // empty: compare within `tolerance` of `value`
  double value = 0, tolerance = 0;
};
Want reference(const rd::Spec& s, const Problem& p) {
  const std::size_t size = cccl_cache::algos::size_of(s.type.scalar);
  const std::uint64_t n = p.items.size() / size;
  const OpKind k = s.op.kind;
  Want w;
  w.exact.resize(size);
  if (!is_float_type(s.type.scalar)) {
    std::uint64_t acc = static_cast<std::uint64_t>(get_int(p.init.data(), s.type.scalar));
    for (std::uint64_t j = 0; j < n; ++j) {
      const std::int64_t v = get_int(&p.items[j * size], s.type.scalar);
      const std::uint64_t u = static_cast<std::uint64_t>(v);
      const bool lt = is_signed_int(s.type.scalar) ? v < static_cast<std::int64_t>(acc) : u < acc;
      switch (k) {
        case OpKind::plus: acc += u; break;
        case OpKind::multiplies: acc *= u; break;
        case OpKind::minimum: acc = lt ? u : acc; break;
        case OpKind::maximum: acc = lt ? acc : u; break;
        case OpKind::bit_and: acc &= u; break;
        case OpKind::bit_or: acc |= u; break;
        case OpKind::bit_xor: acc ^= u; break;
        case OpKind::logical_and: acc = acc != 0 && u != 0; break;
        case OpKind::logical_or: acc = acc != 0 || u != 0; break;
        default: acc = (acc + u) & 0xffffff; break;  // add_low
      }
    }
    put_int(w.exact.data(), acc, size);
    return w;
  }
  double acc = get_float(p.init.data(), s.type.scalar), sum_abs = std::fabs(acc);
  for (std::uint64_t j = 0; j < n; ++j) {
    const double v = get_float(&p.items[j * size], s.type.scalar);
    sum_abs += std::fabs(v);
    switch (k) {
      case OpKind::plus: acc += v; break;
      case OpKind::multiplies: acc *= v; break;
      case OpKind::minimum: acc = std::min(acc, v); break;
      case OpKind::maximum: acc = std::max(acc, v); break;
      case OpKind::logical_and: acc = acc != 0 && v != 0; break;
      case OpKind::logical_or: acc = acc != 0 || v != 0; break;
      default: acc = std::max(std::fabs(acc), std::fabs(v)); break;  // abs_max
    }
  }
  const bool wide = s.type.scalar == ScalarType::float32 || s.type.scalar == ScalarType::float64;
  if (k == OpKind::multiplies || (k == OpKind::plus && !wide)) {
    w.exact.clear();  // rounding depends on the order of the partial results
    w.value = acc;
    w.tolerance = k == OpKind::multiplies ? 1e-2 * std::fabs(acc) + 1e-6
                                          : (s.type.scalar == ScalarType::bfloat16 ? 2e-2 : 2e-3) * sum_abs + 1;
    return w;
  }
  put_float(w.exact.data(), acc, s.type.scalar);  // sums of halves stay exact in float32/64
  return w;
}

std::vector<std::byte> run(const rd::Executable& exe, const Problem& p, CUstream stream) {
  const std::size_t size = p.init.size();
  const std::uint64_t n = p.items.size() / size;
  std::size_t temp_bytes = 0;
  EXPECT_EQ(exe(nullptr, temp_bytes, nullptr, nullptr, n, nullptr, stream), CUDA_SUCCESS);
  EXPECT_EQ(temp_bytes, exe.temp_storage_bytes(n));
  DeviceBuffer in(p.items.size()), out(size), temp(temp_bytes);
  if (n > 0) EXPECT_EQ(cuMemcpyHtoD(in.ptr, p.items.data(), p.items.size()), CUDA_SUCCESS);
  EXPECT_EQ(cuMemsetD8(out.ptr, 0xab, size), CUDA_SUCCESS);
  EXPECT_EQ(exe(temp.get(), temp_bytes, in.get(), out.get(), n, p.init.data(), stream), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  std::vector<std::byte> got(size);
  EXPECT_EQ(cuMemcpyDtoH(got.data(), out.ptr, size), CUDA_SUCCESS);
  return got;
}

}  // namespace

TEST(ReduceGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const rd::Executable& fresh,
                                        const rd::Executable& loaded, CUstream stream) {
    const rd::Spec& spec = built().specs[i];
    std::mt19937_64 rng(77 + i);
    for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26}) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const Problem p = make_problem(spec, n, rng);
      const Want want = reference(spec, p);
      const auto got = run(fresh, p, stream);
      EXPECT_EQ(run(loaded, p, stream), got) << "fresh and store-loaded differ";
      EXPECT_EQ(loaded.temp_storage_bytes(n), fresh.temp_storage_bytes(n));
      if (!want.exact.empty()) {
        EXPECT_EQ(got, want.exact);
      } else {
        EXPECT_NEAR(get_float(got.data(), spec.type.scalar), want.value, want.tolerance);
      }
    }
  });
}

TEST(ReduceGpu, CountsTheOffsetTypeCannotHoldAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  const auto it = std::find_if(b.specs.begin(), b.specs.end(),
                               [](const rd::Spec& s) { return s.offset_type == ScalarType::uint32; });
  ASSERT_NE(it, b.specs.end());
  auto exe = rd::bind(b.fresh[static_cast<std::size_t>(it - b.specs.begin())], 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 1ull << 32, nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(exe->temp_storage_bytes(1ull << 32), 0u);
}

// minimum/maximum over float32/float64 are fmin/fmax as nvcc compiles CUB's: a NaN
// operand yields the other operand, so NaNs among the items never reach the result,
// and an all-NaN input with a NaN initial value gives NaN.
TEST(ReduceGpu, MinAndMaxOverFloatsSkipNaNs) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  CUstream stream = nullptr;
  ASSERT_CU(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
  int checked = 0;
  for (std::size_t i = 0; i < b.specs.size(); ++i) {
    const rd::Spec& spec = b.specs[i];
    const bool min_max = spec.op.kind == OpKind::minimum || spec.op.kind == OpKind::maximum;
    if (!min_max || (spec.type.scalar != ScalarType::float32 && spec.type.scalar != ScalarType::float64)) continue;
    SCOPED_TRACE(rd::summary(spec));
    auto exe = rd::bind(b.fresh[i], 0);
    ASSERT_TRUE(exe) << exe.error().describe();
    const std::size_t size = cccl_cache::algos::size_of(spec.type.scalar);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::mt19937_64 rng(5 + i);
    for (std::uint64_t n : {1025ull, (1ull << 20) + 3}) {
      Problem p{std::vector<std::byte>(n * size), std::vector<std::byte>(size)};
      double want = 0.25;
      put_float(p.init.data(), want, spec.type.scalar);
      for (std::uint64_t j = 0; j < n; ++j) {
        const double v = j % 7 == 3 ? nan : static_cast<double>(static_cast<std::int64_t>(rng() % 4001) - 2000) / 4;
        put_float(&p.items[j * size], v, spec.type.scalar);
        want = spec.op.kind == OpKind::maximum ? std::fmax(want, v) : std::fmin(want, v);
      }
      std::vector<std::byte> exact(size);
      put_float(exact.data(), want, spec.type.scalar);
      EXPECT_EQ(run(*exe, p, stream), exact) << "n = " << n;
      for (std::uint64_t j = 0; j < n; ++j) put_float(&p.items[j * size], nan, spec.type.scalar);
      put_float(p.init.data(), nan, spec.type.scalar);
      EXPECT_TRUE(std::isnan(get_float(run(*exe, p, stream).data(), spec.type.scalar))) << "all NaN, n = " << n;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 4);  // float32 and float64, minimum and maximum
  cuStreamDestroy(stream);
}
