// Run time of transforms over iterators against CUB's own DeviceTransform compiled by
// nvcc with the same pinned CCCL, side by side in one run, 2^min..2^max items (default
// 10..28):
//   counting_negate  unary int64 -> float32, negate, from counting(int64);
//                    CUB: cuda::counting_iterator
//   index_scale      binary float32 x int64 -> float32, x / 2 + i % 7, the second input
//                    counting(int64); CUB: an array and cuda::counting_iterator
//   gather           unary float32, identity, from permutation(float32, int32) over a
//                    shuffled index; CUB: cuda::permutation_iterator
//   reverse_negate   unary float32, negate, into reverse; CUB: cuda::std::reverse_iterator
// Method: bench::rotating_times (CUDA events around each call, the order rotating every
// rep, medians after two warm-up reps). Check: outputs bitwise equal to CUB's.
// Usage: bench_transform_iterator_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <cub/device/device_transform.cuh>
#include <cuda/iterator>
#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/algos/transform/executable.hpp"
#include "vs_cub.hpp"
#include "vs_cub_case.hpp"

namespace ca = cccl_cache::algos;
using bench::Case;
using bench::check_rt;
using ca::Iterator;
using ca::IteratorValue;
using ca::OpKind;
using ca::Operator;
using ca::ScalarType;

namespace {

struct ScaleAdd {
  __device__ float operator()(float x, long long i) const { return x * 0.5f + (float)(i % 7); }
};
const Operator kScaleAdd = Operator::custom(
    "scale_add",
    "__device__ float scale_add(float x, long long i) { return x * 0.5f + (float)(i % 7); }");

void check(CUresult rc, const char* what) { bench::check_cu(rc, what); }

// n floats (small integers) on the device.
const float* some_floats(std::uint64_t n, std::vector<void*>& owned) {
  std::vector<float> h(n);
  std::uint64_t seed = 13;
  for (auto& x : h) x = static_cast<float>(bench::splitmix(seed) % 2001) - 1000.0f;
  float* d = bench::device_copy(h);
  owned.push_back(d);
  return d;
}

ca::transform::UnarySpec unary(ScalarType in, ScalarType out, OpKind op, Iterator input,
                               Iterator output = {}) {
  ca::transform::UnarySpec s{{in}, out, Operator::of(op)};
  s.inputs[0] = std::move(input);
  s.output = std::move(output);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub b(argc, argv, "transform_iterator");
  b.print_method("inputs", "ours and CUB", "rotate", "transforms over iterators; int64 offsets");
  // No temp storage: a size query answers 0.
  auto no_temp = [](void* temp, std::size_t& bytes) {
    if (temp == nullptr) bytes = 0;
    return temp == nullptr;
  };

  const auto& counting_negate = b.acquire(
      unary(ScalarType::int64, ScalarType::float32, OpKind::negate, Iterator::counting(ScalarType::int64)));
  bench::run_case("counting_negate", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<float>(n, owned);
    c.call = [&, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (no_temp(temp, bytes)) return;
      const std::int64_t start = 1 << 20;
      if (who == 0) return check(counting_negate(IteratorValue::counting(start), o0, n, s), "ours");
      check_rt(cub::DeviceTransform::Transform(::cuda::counting_iterator<std::int64_t>(start),
                                               static_cast<float*>(o1), n, ::cuda::std::negate<>{}, s),
               "cub");
    };
    return c;
  });

  ca::transform::BinarySpec index_spec{{ScalarType::float32, ScalarType::int64}, ScalarType::float32,
                                       kScaleAdd};
  index_spec.inputs[1] = Iterator::counting();
  const auto& index_scale = b.acquire(index_spec);
  bench::run_case("index_scale", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    const float* in = some_floats(n, owned);
    Case c = bench::with_outputs<float>(n, owned);
    c.call = [&, in, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (no_temp(temp, bytes)) return;
      if (who == 0)
        return check(index_scale(in, IteratorValue::counting(std::int64_t{0}), o0, n, s), "ours");
      check_rt(cub::DeviceTransform::Transform(
                   ::cuda::std::make_tuple(in, ::cuda::counting_iterator<long long>(0)),
                   static_cast<float*>(o1), n, ScaleAdd{}, s),
               "cub");
    };
    return c;
  });

  const auto& gather = b.acquire(unary(ScalarType::float32, ScalarType::float32, OpKind::identity,
                                       Iterator::permutation(ScalarType::none, ScalarType::int32)));
  bench::run_case("gather", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    const float* values = some_floats(n, owned);
    std::vector<std::int32_t> h(n);
    std::iota(h.begin(), h.end(), 0);
    std::shuffle(h.begin(), h.end(), std::mt19937(17));
    const std::int32_t* idx = bench::device_copy(h);
    owned.push_back(const_cast<std::int32_t*>(idx));
    Case c = bench::with_outputs<float>(n, owned);
    c.call = [&, values, idx, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes,
                                                                cudaStream_t s) {
      if (no_temp(temp, bytes)) return;
      if (who == 0) return check(gather(IteratorValue::permutation(values, idx), o0, n, s), "ours");
      check_rt(cub::DeviceTransform::Transform(::cuda::permutation_iterator(values, idx),
                                               static_cast<float*>(o1), n, ::cuda::std::identity{}, s),
               "cub");
    };
    return c;
  });

  const auto& reverse_negate = b.acquire(
      unary(ScalarType::float32, ScalarType::float32, OpKind::negate, {}, Iterator::reverse()));
  bench::run_case("reverse_negate", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    const float* in = some_floats(n, owned);
    Case c = bench::with_outputs<float>(n, owned);
    c.call = [&, in, n, o0 = c.out[0], o1 = c.out[1]](int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (no_temp(temp, bytes)) return;
      if (who == 0) return check(reverse_negate(in, IteratorValue::reverse(o0), n, s), "ours");
      check_rt(cub::DeviceTransform::Transform(
                   in, ::cuda::std::make_reverse_iterator(static_cast<float*>(o1) + n), n,
                   ::cuda::std::negate<>{}, s),
               "cub");
    };
    return c;
  });
  return 0;
}
