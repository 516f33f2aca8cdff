// Inclusive and exclusive scan on a GPU: outputs equal a host reference (CUB's
// semantics: accumulating in CUB's accumulator, int for int8/int16/uint8/uint16 sums
// (which overflow the element type), products and bitwise ops, bool under the logical
// ops, each output converted to the element type), seeded inclusive scans (init=true,
// CUB's InclusiveScanInit) among them, for sizes 0, 1, 2, 1023, 1025,
// 2^20+3 (and 2^26 for the main types), every element type, every operator kind; a
// fresh executable (build -> bind, out of place) and a store-loaded one (store ->
// AlgorithmCache -> bind, in place) give bitwise-identical outputs and temp sizes, and so
// does the store-loaded one given the initial value in device memory (scan::FutureValue).
// Inputs keep floating-point results exact in any association order. Skips without a GPU.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/scan/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
using namespace cccl_cache::algos;

// ---- host reference over element bytes ----
struct Elem {
  ScalarType t;
  std::size_t size() const { return size_of(t); }
  bool flt() const { return is_float(t); }
  bool sgn() const { return t == ScalarType::int8 || t == ScalarType::int16 || t == ScalarType::int32 || t == ScalarType::int64; }
  double to_double(const std::byte* p) const {
    switch (t) {
      case ScalarType::float16: { __half h; std::memcpy(&h, p, 2); return __half2float(h); }
      case ScalarType::bfloat16: { std::uint16_t b; std::memcpy(&b, p, 2); std::uint32_t u = std::uint32_t{b} << 16; float f; std::memcpy(&f, &u, 4); return f; }
      case ScalarType::float32: { float f; std::memcpy(&f, p, 4); return f; }
      default: { double d; std::memcpy(&d, p, 8); return d; }
    }
  }
  void from_double(double v, std::byte* p) const {  // values are exactly representable
    switch (t) {
      case ScalarType::float16: { __half h = __float2half(static_cast<float>(v)); std::memcpy(p, &h, 2); return; }
      case ScalarType::bfloat16: { float f = static_cast<float>(v); std::uint32_t u; std::memcpy(&u, &f, 4); std::uint16_t b = static_cast<std::uint16_t>(u >> 16); std::memcpy(p, &b, 2); return; }
      case ScalarType::float32: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); return; }
      default: std::memcpy(p, &v, 8); return;
    }
  }
  std::uint64_t to_bits(const std::byte* p) const {  // sign-extended
    std::uint64_t u = 0;
    std::memcpy(&u, p, size());
    const unsigned bits = 8 * static_cast<unsigned>(size());
    if (sgn() && bits < 64 && (u >> (bits - 1)) & 1) u |= ~std::uint64_t{0} << bits;
    return u;
  }
  void from_bits(std::uint64_t u, std::byte* p) const { std::memcpy(p, &u, size()); }  // truncates
};

// op(a, b) in the element type, as the device computes it (custom operators here are max).
void apply(const Elem& e, OpKind k, const std::byte* a, const std::byte* b, std::byte* out) {
  if (e.flt()) {
    const double x = e.to_double(a), y = e.to_double(b);
    double r = 0;
    switch (k) {
      case OpKind::plus: r = x + y; break;
      case OpKind::multiplies: r = x * y; break;
      case OpKind::minimum: r = std::min(x, y); break;
      case OpKind::logical_and: r = (x != 0 && y != 0); break;
      case OpKind::logical_or: r = (x != 0 || y != 0); break;
      default: r = std::max(x, y); break;  // maximum, custom
    }
    return e.from_double(r, out);
  }
  const std::uint64_t x = e.to_bits(a), y = e.to_bits(b);
  const bool lt = e.sgn() ? static_cast<std::int64_t>(x) < static_cast<std::int64_t>(y) : x < y;
  std::uint64_t r = 0;
  switch (k) {
    case OpKind::plus: r = x + y; break;
    case OpKind::multiplies: r = x * y; break;
    case OpKind::minimum: r = lt ? x : y; break;
    case OpKind::bit_and: r = x & y; break;
    case OpKind::bit_or: r = x | y; break;
    case OpKind::bit_xor: r = x ^ y; break;
    case OpKind::logical_and: r = (x != 0 && y != 0); break;
    case OpKind::logical_or: r = (x != 0 || y != 0); break;
    default: r = lt ? y : x; break;  // maximum, custom
  }
  e.from_bits(r, out);
}

bool logical(OpKind k) { return k == OpKind::logical_and || k == OpKind::logical_or; }

// CUB's accumulator, __accumulator_t<Op, T, T>: int for integers narrower than int under
// plus, multiplies and the bitwise kinds; under the logical kinds bool (here: the element
// type holding 0 or 1, converted by `to_acc`); else T. Its size: what the build records.
Elem accumulator(const Elem& e, OpKind k) {
  const bool promotes = k == OpKind::plus || k == OpKind::multiplies || k == OpKind::bit_and ||
                        k == OpKind::bit_or || k == OpKind::bit_xor;
  return {!e.flt() && e.size() < 4 && promotes ? ScalarType::int32 : e.t};
}
std::size_t accumulator_size(const Elem& e, OpKind k) {
  return logical(k) ? 1 : accumulator(e, k).size();
}

// x (type `from`) converted to `to` as C++ converts: integers sign- or zero-extended or
// truncated, to bool (under the logical kinds) 0 or 1.
void convert(const Elem& from, const std::byte* x, const Elem& to, OpKind k, std::byte* out) {
  if (logical(k)) {
    const bool b = from.flt() ? from.to_double(x) != 0 : from.to_bits(x) != 0;
    return to.flt() ? to.from_double(b ? 1 : 0, out) : to.from_bits(b ? 1 : 0, out);
  }
  if (from.t == to.t) return static_cast<void>(std::memcpy(out, x, from.size()));
  to.from_bits(from.to_bits(x), out);  // only integers change type
}

// CUB's semantics: inclusive out[i] = x0 op .. op xi; exclusive out[0] = init,
// out[i] = init op x0 op .. op x(i-1); seeded inclusive out[i] = init op x0 op .. op xi;
// in the accumulator, each output converted to T.
std::vector<std::byte> reference(const Elem& e, OpKind k, const std::vector<std::byte>& in,
                                 const std::byte* init, bool seeded_inclusive = false) {
  const std::size_t s = e.size(), n = in.size() / s;
  const Elem a = accumulator(e, k);
  std::vector<std::byte> out(in.size());
  if (n == 0) return out;
  std::vector<std::byte> acc(a.size()), x(a.size());
  if (seeded_inclusive) {
    convert(e, init, a, k, acc.data());
    for (std::size_t i = 0; i < n; ++i) {
      convert(e, &in[i * s], a, k, x.data());
      apply(a, k, acc.data(), x.data(), acc.data());
      convert(a, acc.data(), e, k, &out[i * s]);
    }
    return out;
  }
  convert(e, init ? init : in.data(), a, k, acc.data());
  convert(a, acc.data(), e, k, out.data());
  for (std::size_t i = 1; i < n; ++i) {
    convert(e, &in[(init ? i - 1 : i) * s], a, k, x.data());
    apply(a, k, acc.data(), x.data(), acc.data());
    convert(a, acc.data(), e, k, &out[i * s]);
  }
  return out;
}

// Inputs for which every association order gives the same result.
std::vector<std::byte> inputs(const Elem& e, OpKind k, std::uint64_t n, std::mt19937_64& rng) {
  std::vector<std::byte> in(n * e.size());
  if (!e.flt()) {
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t v = rng();
      if (k == OpKind::logical_and) v = (v % 64 == 0) ? 0 : v;  // runs of ones
      if (k == OpKind::logical_or) v = (v % 64 == 0) ? v : 0;
      e.from_bits(v, &in[i * e.size()]);
    }
    return in;
  }
  int w = 0;  // plus: differences of a walk in [-8, 8]: every partial sum is in [-16, 16]
  for (std::uint64_t i = 0; i < n; ++i) {
    double v = 0;
    switch (k) {
      case OpKind::plus: { const int next = std::clamp(w + static_cast<int>(rng() % 7) - 3, -8, 8); v = next - w; w = next; break; }
      case OpKind::multiplies: v = (rng() & 1) ? 1.0 : -1.0; break;
      case OpKind::logical_and: v = (rng() % 64 == 0) ? 0.0 : 2.0; break;
      case OpKind::logical_or: v = (rng() % 64 == 0) ? 3.0 : 0.0; break;
      default: v = static_cast<double>(static_cast<int>(rng() % 201) - 100); break;
    }
    e.from_double(v, &in[i * e.size()]);
  }
  return in;
}

// ---- the cases: built once (in parallel) into a store in a temp dir ----
struct Case {
  ScalarType type;
  Operator op;
  bool exclusive;
  bool large;  // also 2^26 items
  bool seeded = false;  // an inclusive scan with init=true
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  const ScalarType all[] = {ScalarType::int8, ScalarType::int16, ScalarType::int32, ScalarType::int64,
                            ScalarType::uint8, ScalarType::uint16, ScalarType::uint32, ScalarType::uint64,
                            ScalarType::float16, ScalarType::bfloat16, ScalarType::float32, ScalarType::float64};
  for (ScalarType t : all)
    for (bool ex : {false, true})
      cases.push_back({t, Operator::plus(), ex,
                       t == ScalarType::float32 || t == ScalarType::int64 || t == ScalarType::int32});
  const auto imax = Operator::custom("imax", "__device__ int imax(int a, int b) { return a > b ? a : b; }");
  const auto dmax = Operator::custom("dmax", "__device__ double dmax(double a, double b) { return a < b ? b : a; }");
  for (bool ex : {false, true}) {
    for (OpKind k : {OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::bit_and, OpKind::bit_or,
                     OpKind::bit_xor, OpKind::logical_and, OpKind::logical_or})
      cases.push_back({ScalarType::int32, Operator::of(k), ex, false});
    for (OpKind k : {OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::logical_and, OpKind::logical_or})
      cases.push_back({ScalarType::float32, Operator::of(k), ex, false});
    cases.push_back({ScalarType::uint8, Operator::of(OpKind::bit_xor), ex, false});
    cases.push_back({ScalarType::int16, Operator::of(OpKind::multiplies), ex, false});
    cases.push_back({ScalarType::float16, Operator::of(OpKind::maximum), ex, false});
    cases.push_back({ScalarType::bfloat16, Operator::of(OpKind::minimum), ex, false});
    cases.push_back({ScalarType::int32, imax, ex, false});
    cases.push_back({ScalarType::float64, dmax, ex, false});
  }
  // Seeded inclusive scans: the accumulator's promotion, the operator kinds, a custom one.
  cases.push_back({ScalarType::int32, Operator::plus(), false, true, true});
  cases.push_back({ScalarType::float32, Operator::plus(), false, false, true});
  cases.push_back({ScalarType::int8, Operator::plus(), false, false, true});
  cases.push_back({ScalarType::uint16, Operator::of(OpKind::bit_xor), false, false, true});
  cases.push_back({ScalarType::int32, Operator::of(OpKind::maximum), false, false, true});
  cases.push_back({ScalarType::float32, Operator::of(OpKind::logical_or), false, false, true});
  cases.push_back({ScalarType::int32, imax, false, false, true});
  return cases;
}

template <AlgorithmId Id>
scan::Spec<Id> spec_of(const Case& c) {
  return {c.type, c.op, ScalarType::uint64, c.seeded};
}
AnySpec any_of(const Case& c) {
  return c.exclusive ? to_any(spec_of<AlgorithmId::exclusive_scan>(c))
                     : to_any(spec_of<AlgorithmId::inclusive_scan>(c));
}

using Built = BuiltStore<Case, BuildRecord>;

Built& built() {
  static Built b = build_into_temp_store<BuildRecord>(
      "cccl-cache-scan-gpu-test", all_cases(),
      [](const Case& c) {
        const AnySpec s = any_of(c);
        return find_algorithm(s.algorithm)->build(s.fields, gpu().cc);
      },
      [](const Case& c) { return spec_text(any_of(c)); },
      [](cccl_cache::Store& store, const Case& c, const BuildRecord& fresh) {
        const AnySpec s = any_of(c);
        return put_build(store, cache_key(s, gpu().cc), algorithm_name(s.algorithm), spec_text(s),
                         fresh.toolchain, serialize_record(fresh));
      },
      "scans");
  return b;
}

struct Output {
  std::size_t temp_bytes = 0;
  std::vector<std::byte> out;
};

// How a call passes the initial value: host bytes, or (device) a copy in device memory
// through scan::FutureValue.
enum class InitFrom { host, device };

template <AlgorithmId Id>
Output run(const scan::Executable<Id>& exe, const std::vector<std::byte>& in, std::uint64_t n,
           const std::byte* init, bool in_place, CUstream stream, InitFrom from = InitFrom::host) {
  Output o;
  const std::size_t elem = size_of(exe.spec().type);
  DeviceBuffer d_init(elem);
  if (init != nullptr && from == InitFrom::device)
    EXPECT_EQ(cuMemcpyHtoD(d_init.ptr, init, elem), CUDA_SUCCESS);
  auto call = [&](void* temp, std::size_t& bytes, const void* d_in, void* d_out) {
    if (init != nullptr && from == InitFrom::device)
      return exe(temp, bytes, d_in, d_out, n, scan::FutureValue{d_init.get()}, stream);
    if (init != nullptr) return exe(temp, bytes, d_in, d_out, n, init, stream);
    if constexpr (Id == AlgorithmId::inclusive_scan) return exe(temp, bytes, d_in, d_out, n, stream);
    ADD_FAILURE() << "an exclusive scan without its initial value";
    return CUDA_ERROR_INVALID_VALUE;
  };
  EXPECT_EQ(call(nullptr, o.temp_bytes, nullptr, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(o.temp_bytes, exe.temp_storage_bytes(n));
  DeviceBuffer d_in(in.size()), d_out(in.size()), d_temp(o.temp_bytes);
  EXPECT_EQ(cuMemcpyHtoD(d_in.ptr, in.data(), in.size()), CUDA_SUCCESS);
  EXPECT_EQ(cuMemsetD8(d_out.ptr, 0xab, std::max<std::size_t>(in.size(), 1)), CUDA_SUCCESS);
  const DeviceBuffer& dst = in_place ? d_in : d_out;
  std::size_t bytes = o.temp_bytes;
  EXPECT_EQ(call(d_temp.get(), bytes, d_in.get(), dst.get()), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  o.out.resize(in.size());
  EXPECT_EQ(cuMemcpyDtoH(o.out.data(), dst.ptr, in.size()), CUDA_SUCCESS);
  return o;
}

template <AlgorithmId Id>
void check_case(std::size_t index, const std::vector<std::uint64_t>& sizes) {
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  const Case& c = b.specs[index];
  const auto spec = spec_of<Id>(c);
  SCOPED_TRACE(spec_text(spec));
  auto view = typed_view<Scan<Id>>(view_of(b.fresh[index]));
  ASSERT_TRUE(view) << view.error().describe();
  EXPECT_EQ(view->policy.accum_size, accumulator_size(Elem{c.type}, c.op.kind));
  auto fresh = Scan<Id>::bind(*view, 0);
  ASSERT_TRUE(fresh) << fresh.error().describe();
  AlgorithmCache loader(b.store);  // a new cache: this must be a store hit
  auto loaded = loader.acquire(spec, 0);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(loader.stats().builds, 0u);
  EXPECT_EQ(loader.stats().store_hits, 1u);
  CUstream stream = nullptr;
  // Blocking: the legacy-stream copies and memsets before each call are ordered before it.
  ASSERT_EQ(cuStreamCreate(&stream, CU_STREAM_DEFAULT), CUDA_SUCCESS);
  const Elem e{c.type};
  std::mt19937_64 rng(99 + index);
  for (std::uint64_t n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = inputs(e, c.op.kind, n, rng);
    std::vector<std::byte> init(e.size());
    const auto seed = inputs(e, c.op.kind, 2, rng);  // a value of the op's domain
    std::memcpy(init.data(), &seed[e.size()], e.size());
    const std::byte* h_init = Id == AlgorithmId::exclusive_scan || c.seeded ? init.data() : nullptr;
    const auto want = reference(e, c.op.kind, in, h_init, c.seeded);
    const Output f = run(*fresh, in, n, h_init, /*in_place=*/false, nullptr);
    const Output l = run(**loaded, in, n, h_init, /*in_place=*/true, stream);
    EXPECT_EQ(f.temp_bytes, l.temp_bytes);
    std::size_t first_bad = n;
    for (std::size_t i = 0; i < n && first_bad == n; ++i)
      if (std::memcmp(&f.out[i * e.size()], &want[i * e.size()], e.size()) != 0) first_bad = i;
    EXPECT_EQ(first_bad, n) << "fresh output differs from the host reference at this index";
    EXPECT_TRUE(f.out == l.out) << "fresh and store-loaded outputs differ";
    if (h_init != nullptr) {
      const Output d = run(**loaded, in, n, h_init, /*in_place=*/false, stream, InitFrom::device);
      EXPECT_EQ(d.temp_bytes, f.temp_bytes);
      EXPECT_TRUE(d.out == f.out) << "the initial value from device memory gives another output";
    }
  }
  cuStreamDestroy(stream);
}

void check_index(std::size_t i, const std::vector<std::uint64_t>& sizes) {
  if (built().specs[i].exclusive)
    check_case<AlgorithmId::exclusive_scan>(i, sizes);
  else
    check_case<AlgorithmId::inclusive_scan>(i, sizes);
}

const std::vector<std::uint64_t> kSizes = {0, 1, 2, 1023, 1025, (1u << 20) + 3};

TEST(ScanGpu, EveryElementTypeWithPlusFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for (std::size_t i = 0; i < built().specs.size(); ++i)
    if (built().specs[i].op.kind == OpKind::plus) check_index(i, kSizes);
}

TEST(ScanGpu, EveryOperatorKindFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for (std::size_t i = 0; i < built().specs.size(); ++i)
    if (built().specs[i].op.kind != OpKind::plus) check_index(i, kSizes);
}

TEST(ScanGpu, LargeScansOf2Pow26) {
  SKIP_WITHOUT_GPU();
  for (std::size_t i = 0; i < built().specs.size(); ++i)
    if (built().specs[i].large) check_index(i, {1ull << 26});
}

TEST(ScanGpu, BadCallsAreInvalidValue) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(built().error.empty()) << built().error;
  std::size_t i = 0;
  while (!built().specs[i].exclusive) ++i;
  auto view = typed_view<ExclusiveScan>(view_of(built().fresh[i]));
  ASSERT_TRUE(view);
  auto exe = ExclusiveScan::bind(*view, 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  std::size_t bytes = 0;
  ASSERT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 5000, nullptr, nullptr), CUDA_SUCCESS);
  DeviceBuffer temp(bytes), data(5000 * 8);
  const double init = 0;
  std::size_t small = bytes - 1;
  EXPECT_EQ((*exe)(temp.get(), small, data.get(), data.get(), 5000, &init, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ((*exe)(temp.get(), bytes, data.get(), data.get(), 5000, nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ((*exe)(temp.get(), bytes, data.get(), data.get(), 5000, scan::FutureValue{}, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  auto moved = std::move(*exe);
  EXPECT_EQ((*exe)(temp.get(), bytes, data.get(), data.get(), 5000, &init, nullptr), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(moved(temp.get(), bytes, data.get(), data.get(), 5000, &init, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
}

// An inclusive scan takes the call form its spec says: with an initial value (host or
// device) seeded, without unseeded; the other form is refused before any launch.
TEST(ScanGpu, SeededAndUnseededInclusiveRefuseTheOtherForm) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(built().error.empty()) << built().error;
  for (bool seeded : {false, true}) {
    std::size_t i = 0;
    while (built().specs[i].exclusive || built().specs[i].seeded != seeded) ++i;
    auto view = typed_view<InclusiveScan>(view_of(built().fresh[i]));
    ASSERT_TRUE(view);
    auto exe = InclusiveScan::bind(*view, 0);
    ASSERT_TRUE(exe) << exe.error().describe();
    const std::size_t size = size_of(built().specs[i].type);
    std::size_t bytes = exe->temp_storage_bytes(5000);
    DeviceBuffer temp(bytes), data(5000 * size);
    const std::uint64_t init = 0;
    const CUresult with_init = (*exe)(temp.get(), bytes, data.get(), data.get(), 5000, &init, nullptr);
    const CUresult without = (*exe)(temp.get(), bytes, data.get(), data.get(), 5000, CUstream{});
    EXPECT_EQ(with_init, seeded ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(without, seeded ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS);
    const void* no_init = nullptr;
    EXPECT_EQ((*exe)(temp.get(), bytes, data.get(), data.get(), 5000, no_init, nullptr), CUDA_ERROR_INVALID_VALUE);
    DeviceBuffer d_init(8);
    ASSERT_EQ(cuMemsetD8(d_init.ptr, 0, 8), CUDA_SUCCESS);
    const scan::FutureValue on_device{d_init.get()};
    EXPECT_EQ((*exe)(temp.get(), bytes, data.get(), data.get(), 5000, on_device, nullptr),
              seeded ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  }
}

}  // namespace
