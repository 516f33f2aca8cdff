// Run time of reduce and scans over iterators and of struct scans against CUB's own
// compiled by nvcc with the same pinned CCCL, side by side in one run, 2^min..2^max items
// (default 10..28):
//   norm          reduce float32 from transform(square) into transform(root, float64);
//                 CUB: cuda::transform_iterator in, cuda::transform_output_iterator out
//   sumsq_scan    inclusive scan float32 from transform(square); CUB: transform_iterator
//   counting_scan inclusive scan int64 from counting(int64) from 1; CUB: counting_iterator
//   reverse_scan  inclusive scan int32 into reverse; CUB: cuda::std::reverse_iterator
//   argmax_scan   inclusive scan of 8-byte {float value; int index} structs, a running
//                 argmax (the lower index among equal values); CUB: the same struct and op
//   zip_argmax    reduce of zip(float32 values, counting(int64)) into a 16-byte
//                 {float value; long long index}, the argmax with its position; CUB:
//                 cuda::zip_transform_iterator making the struct from the same two
//                 iterators, the same op
//   dot           reduce float32 of transform(multiplies, zip(float32, float32)), a dot
//                 product (cuda.compute's TransformIterator(ZipIterator(a, b), op)); CUB:
//                 cuda::transform_iterator over cuda::zip_iterator, the product of the tuple
//   affine        reduce int64 of transform(affine:16/8, counting(int64)), a * i + b with
//                 {a, b} the operator's state; CUB: cuda::transform_iterator over
//                 cuda::counting_iterator with a functor holding a and b
//   rev_counts    inclusive scan int64 of reverse(transform(times3, counting(int64))),
//                 3 * (n - 1 - i); CUB: cuda::std::reverse_iterator over the same
//                 transform_iterator
// CUB is called with a uint64_t count (uint64 offsets), as our default specs.
// Method: bench::rotating_times (CUDA events around each call, the order rotating every
// rep, medians after two warm-up reps). Check: outputs bitwise equal to CUB's (float
// inputs keep every partial sum exact) and equal temp-storage sizes.
// Usage: bench_iterator_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/iterator>
#include <cuda/std/iterator>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "struct_argmax.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "vs_cub.hpp"
#include "vs_cub_case.hpp"

namespace ca = cccl_cache::algos;
using ca::Iterator;
using ca::IteratorValue;
using ca::Operator;
using ca::ScalarType;

namespace {

using bench::Case;
using bench::check_rt;

struct Square {
  __device__ float operator()(float x) const { return x * x; }
};
struct Root {
  __device__ float operator()(float x) const { return sqrtf(x); }
};
const Operator kSquare = Operator::custom("square", "__device__ float square(float x) { return x * x; }");
const Operator kRoot = Operator::custom("root", "__device__ float root(float x) { return sqrtf(x); }");

using bench::ArgMax;
using bench::kArgMaxSrc;
using bench::kViDef;
using bench::vi;

struct vi64 {
  float value;
  long long index;
};
struct ArgMax64 {
  __device__ vi64 operator()(const vi64& a, const vi64& b) const {
    return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
};
struct MakeVi64 {
  __device__ vi64 operator()(float value, long long index) const { return {value, index}; }
};
const char* kVi64Def = "struct vi64 { float value; long long index; };";
const char* kArgMax64Src =
    "__device__ vi64 argmax64(const vi64& a, const vi64& b) {\n"
    "  return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;\n}";

// CUB's int64 functors and iterators are in the host's std::int64_t (long on LP64), the
// type our int64 spells: CUB compiles long long to other device code (its warp reductions'
// inline-PTX shuffle for long long under plus; the affine reduce's first pass on sm_90:
// 40 registers for long long, 56 for long in nvcc's own build).
struct Affine {
  std::int64_t a, b;
  __device__ std::int64_t operator()(std::int64_t i) const { return a * i + b; }
};
struct Times3 {
  __device__ std::int64_t operator()(std::int64_t i) const { return 3 * i; }
};

struct TupleProduct {
  __device__ float operator()(const ::cuda::std::tuple<float, float>& t) const {
    return ::cuda::std::get<0>(t) * ::cuda::std::get<1>(t);
  }
};

// Floats whose squares' (and products') partial sums stay exact in float32: every 256th
// value in [-3, 3].
float* sparse_floats(std::uint64_t n, std::vector<void*>& owned, std::uint64_t seed = 11) {
  std::vector<float> h(n, 0.0f);
  for (std::uint64_t i = 0; i < n; i += 256) h[i] = static_cast<float>(bench::splitmix(seed) % 7) - 3.0f;
  float* d = bench::device_copy(h);
  owned.push_back(d);
  return d;
}

void check(CUresult rc, const char* what) { bench::check_cu(rc, what); }

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub b(argc, argv, "iterator");
  b.print_method("inputs", "ours and CUB", "rotate",
                 "iterators, 8- and 16-byte structs; uint64 offsets");
  using ::cuda::std::plus;

  ca::reduce::Spec norm_spec;
  norm_spec.type = ScalarType::float32;
  norm_spec.input = Iterator::transform(kSquare);
  norm_spec.output = Iterator::transform(kRoot, ScalarType::float64);
  const auto& norm = b.acquire(norm_spec);
  bench::run_case("norm", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    const float* in = sparse_floats(n, owned);
    Case c = bench::with_outputs<double>(1, owned);
    c.call = [&norm, in, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      const float zero = 0.0f;
      if (who == 0)
        return check(norm(temp, bytes, IteratorValue::transform(in), IteratorValue::transform(o0), n, &zero, s),
                     "ours");
      check_rt(cub::DeviceReduce::Reduce(temp, bytes, ::cuda::make_transform_iterator(in, Square{}),
                                         ::cuda::make_transform_output_iterator(static_cast<double*>(o1), Root{}),
                                         n, plus<>{}, zero, s),
               "cub");
    };
    return c;
  });

  ca::scan::InclusiveSpec sumsq_spec;
  sumsq_spec.type = ScalarType::float32;
  sumsq_spec.input = Iterator::transform(kSquare);
  const auto& sumsq = b.acquire(sumsq_spec);
  bench::run_case("sumsq_scan", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    const float* in = sparse_floats(n, owned);
    Case c = bench::with_outputs<float>(n, owned);
    c.call = [&sumsq, in, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (who == 0) return check(sumsq(temp, bytes, IteratorValue::transform(in), o0, n, s), "ours");
      check_rt(cub::DeviceScan::InclusiveScan(temp, bytes, ::cuda::make_transform_iterator(in, Square{}),
                                              static_cast<float*>(o1), plus<>{}, n, s),
               "cub");
    };
    return c;
  });

  ca::scan::InclusiveSpec counting_spec;
  counting_spec.type = ScalarType::int64;
  counting_spec.input = Iterator::counting(ScalarType::int64);
  const auto& counting = b.acquire(counting_spec);
  bench::run_case("counting_scan", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<std::int64_t>(n, owned);
    c.call = [&counting, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (who == 0) return check(counting(temp, bytes, IteratorValue::counting(std::int64_t{1}), o0, n, s), "ours");
      check_rt(cub::DeviceScan::InclusiveScan(temp, bytes, ::cuda::counting_iterator<std::int64_t>(1),
                                              static_cast<std::int64_t*>(o1), plus<>{}, n, s),
               "cub");
    };
    return c;
  });

  ca::scan::InclusiveSpec reverse_spec;
  reverse_spec.type = ScalarType::int32;
  reverse_spec.output = Iterator::reverse();
  const auto& reverse = b.acquire(reverse_spec);
  bench::run_case("reverse_scan", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    std::vector<std::int32_t> h(n);
    std::uint64_t seed = 5;
    for (auto& x : h) x = static_cast<std::int32_t>(bench::splitmix(seed));
    const std::int32_t* in = bench::device_copy(h);
    owned.push_back(const_cast<std::int32_t*>(in));
    Case c = bench::with_outputs<std::int32_t>(n, owned);
    c.call = [&reverse, in, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (who == 0) return check(reverse(temp, bytes, in, IteratorValue::reverse(o0), n, s), "ours");
      check_rt(cub::DeviceScan::InclusiveScan(
                   temp, bytes, in, ::cuda::std::make_reverse_iterator(static_cast<std::int32_t*>(o1) + n),
                   plus<>{}, n, s),
               "cub");
    };
    return c;
  });

  ca::scan::InclusiveSpec argmax_spec;
  argmax_spec.type = ca::ElementType::structure("vi", kViDef, sizeof(vi), alignof(vi));
  argmax_spec.op = Operator::custom("argmax", kArgMaxSrc);
  const auto& argmax = b.acquire(argmax_spec);
  bench::run_case("argmax_scan", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    std::vector<vi> h(n);
    std::uint64_t seed = 3;
    for (std::uint64_t i = 0; i < n; ++i)
      h[i] = {static_cast<float>(bench::splitmix(seed) % 100000), static_cast<int>(i)};
    const vi* in = bench::device_copy(h);
    owned.push_back(const_cast<vi*>(in));
    Case c = bench::with_outputs<vi>(n, owned);
    c.call = [&argmax, in, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (who == 0) return check(argmax(temp, bytes, in, o0, n, s), "ours");
      check_rt(cub::DeviceScan::InclusiveScan(temp, bytes, in, static_cast<vi*>(o1), ArgMax{}, n, s), "cub");
    };
    return c;
  });

  ca::reduce::Spec zip_spec;
  zip_spec.type = ca::ElementType::structure("vi64", kVi64Def, sizeof(vi64), alignof(vi64));
  zip_spec.op = Operator::custom("argmax64", kArgMax64Src);
  zip_spec.input =
      Iterator::zip({Iterator::array(ScalarType::float32), Iterator::counting(ScalarType::int64)});
  const auto& zip_argmax = b.acquire(zip_spec);
  bench::run_case("zip_argmax", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    std::vector<float> h(n);
    std::uint64_t seed = 7;
    for (auto& x : h) x = static_cast<float>(bench::splitmix(seed) % 100000);
    const float* in = bench::device_copy(h);
    owned.push_back(const_cast<float*>(in));
    Case c = bench::with_outputs<vi64>(1, owned);
    c.call = [&zip_argmax, in, n, o0 = c.out[0], o1 = c.out[1]](
                 int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      const vi64 init{-1.0f, -1};
      if (who == 0) {
        const IteratorValue parts[] = {IteratorValue::array(in),
                                       IteratorValue::counting(std::int64_t{0})};
        return check(zip_argmax(temp, bytes, IteratorValue::zip(parts, 2), o0, n, &init, s),
                     "ours");
      }
      check_rt(
          cub::DeviceReduce::Reduce(temp, bytes,
                                    ::cuda::make_zip_transform_iterator(
                                        MakeVi64{}, in, ::cuda::counting_iterator<std::int64_t>(0)),
                                    static_cast<vi64*>(o1), n, ArgMax64{}, init, s),
          "cub");
    };
    return c;
  });

  ca::reduce::Spec dot_spec;
  dot_spec.type = ScalarType::float32;
  dot_spec.input = Iterator::transform_of(
      Operator::of(ca::OpKind::multiplies),
      Iterator::zip({Iterator::array(ScalarType::float32), Iterator::array(ScalarType::float32)}));
  const auto& dot = b.acquire(dot_spec);
  bench::run_case("dot", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    const float* x = sparse_floats(n, owned);
    const float* y = sparse_floats(n, owned, 29);
    Case c = bench::with_outputs<float>(1, owned);
    c.call = [&dot, x, y, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      const float zero = 0.0f;
      if (who == 0) {
        const IteratorValue zip_parts[] = {IteratorValue::array(x), IteratorValue::array(y)};
        const IteratorValue base = IteratorValue::zip(zip_parts, 2);
        return check(dot(temp, bytes, IteratorValue::transform_of(&base), o0, n, &zero, s), "ours");
      }
      check_rt(cub::DeviceReduce::Reduce(
                   temp, bytes,
                   ::cuda::make_transform_iterator(::cuda::make_zip_iterator(x, y), TupleProduct{}),
                   static_cast<float*>(o1), n, plus<>{}, zero, s),
               "cub");
    };
    return c;
  });

  ca::reduce::Spec affine_spec;
  affine_spec.type = ScalarType::int64;
  affine_spec.input = Iterator::transform(
      Operator::custom("affine",
                       "__device__ long long affine(void* s, long long i) { const long long* ab = (const long long*)s; "
                       "return ab[0] * i + ab[1]; }",
                       16, 8),
      ScalarType::int64, true);
  const auto& affine = b.acquire(affine_spec);
  bench::run_case("affine", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<std::int64_t>(1, owned);
    c.call = [&affine, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      const std::int64_t zero = 0;
      const Affine state{3, -7};
      if (who == 0)
        return check(affine(temp, bytes, IteratorValue::of(ca::IteratorKind::transform, std::int64_t{0}).with_state(&state), o0,
                            n, &zero, s),
                     "ours");
      check_rt(cub::DeviceReduce::Reduce(
                   temp, bytes, ::cuda::make_transform_iterator(::cuda::counting_iterator<std::int64_t>(0), state),
                   static_cast<std::int64_t*>(o1), n, plus<>{}, zero, s),
               "cub");
    };
    return c;
  });

  ca::scan::InclusiveSpec rev_spec;
  rev_spec.type = ScalarType::int64;
  rev_spec.input = Iterator::reverse_of(Iterator::transform(
      Operator::custom("times3", "__device__ long long times3(long long i) { return 3 * i; }"), ScalarType::int64,
      true));
  const auto& rev_counts = b.acquire(rev_spec);
  bench::run_case("rev_counts", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<std::int64_t>(n, owned);
    c.call = [&rev_counts, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes,
                                                            cudaStream_t s) {
      if (who == 0) {
        const IteratorValue base = IteratorValue::of(ca::IteratorKind::transform, std::int64_t{0});
        return check(rev_counts(temp, bytes, IteratorValue::reverse_of(&base), o0, n, s), "ours");
      }
      const auto counts = ::cuda::make_transform_iterator(::cuda::counting_iterator<std::int64_t>(0), Times3{});
      check_rt(cub::DeviceScan::InclusiveScan(temp, bytes,
                                              ::cuda::std::make_reverse_iterator(counts + static_cast<std::int64_t>(n)),
                                              static_cast<std::int64_t*>(o1), plus<>{}, n, s),
               "cub");
    };
    return c;
  });
  return 0;
}
