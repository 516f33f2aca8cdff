// Run time of select, three-way partition, binary search and histogram over iterators
// against CUB's own (DeviceSelect::If, DevicePartition::If, DeviceFind::LowerBound,
// DeviceHistogram::HistogramEven) compiled by nvcc with the same pinned CCCL given
// libcu++'s iterators, side by side in one run, 2^min..2^max items (default 10..28):
//   select_indices    the int64 indices i with i % 3 == 1, from counting(int64);
//                     CUB: cuda::counting_iterator
//   count_if          their number alone, into discard; CUB: cuda::discard_iterator
//   partition_indices the indices split three ways (i % 3 == 0, then i % 3 == 1), the rest
//                     into discard; CUB: counting and discard iterators
//   lower_bound_range where each of n consecutive int64 (a counting input) goes in 2^20
//                     sorted int64, written last first; CUB: counting and reverse iterators
//   histogram_squares the squares of n float32 in [-1e6, 1e6) (a transform input) in 256
//                     bins over [0, 1e12), int32 counts; CUB: cuda::transform_iterator
// Method: bench::rotating_times (CUDA events around each call, the order rotating every
// rep, medians after two warm-up reps). Check: outputs (items and counts) bitwise equal to
// CUB's; temp_equal: the same temp-storage size.
// Usage: bench_selection_iterator_vs_cub [max_log [min_log]]
#include <cuda_runtime.h>

#include <cub/device/device_find.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/iterator>
#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/binary_search/executable.hpp"
#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "cccl_cache/algos/histogram_even/executable.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "cccl_cache/algos/select/executable.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "cccl_cache/algos/three_way_partition/executable.hpp"
#include "vs_cub.hpp"
#include "vs_cub_case.hpp"

namespace ca = cccl_cache::algos;
using bench::Case;
using bench::check_rt;
using ca::Iterator;
using ca::IteratorValue;
using ca::Operator;
using ca::ScalarType;

namespace {

template <int R>
struct ModThree {
  __device__ bool operator()(long long i) const { return i % 3 == R; }
};
Operator mod_three(int r) {
  const std::string name = "mod3_" + std::to_string(r);
  return Operator::custom(name, "__device__ bool " + name + "(long long i) { return i % 3 == " +
                                    std::to_string(r) + "; }");
}

void check(CUresult rc, const char* what) { bench::check_cu(rc, what); }

using Counting = ::cuda::counting_iterator<long long>;

struct Square {
  __device__ float operator()(float x) const { return x * x; }
};

}  // namespace

int main(int argc, char** argv) {
  bench::VsCub b(argc, argv, "selection_iterator");
  b.print_method("inputs", "ours and CUB", "rotate",
                 "select, partition and search over iterators; int64 counts");

  ca::select::Spec sel;
  sel.type = ScalarType::int64;
  sel.op = mod_three(1);
  sel.input = Iterator::counting();
  const auto& select_indices = b.acquire(sel);
  // Ours and CUB's: n indices and the count after them.
  bench::run_case("select_indices", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<std::int64_t>(n + 1, owned);
    c.call = [&, n, o0 = static_cast<std::int64_t*>(c.out[0]),
              o1 = static_cast<std::int64_t*>(c.out[1])](int who, void* temp, std::size_t& bytes,
                                                        cudaStream_t s) {
      if (who == 0)
        return check(select_indices(temp, bytes, IteratorValue::counting(std::int64_t{0}), o0,
                                    o0 + n, n, s),
                     "ours");
      check_rt(cub::DeviceSelect::If(temp, bytes, Counting(0), o1,
                                     reinterpret_cast<unsigned long long*>(o1 + n),
                                     static_cast<std::int64_t>(n), ModThree<1>{}, s),
               "cub");
    };
    return c;
  });

  ca::select::Spec count = sel;
  count.output = Iterator::discard();
  const auto& count_if = b.acquire(count);
  bench::run_case("count_if", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<std::uint64_t>(1, owned);
    c.call = [&, n, o0 = c.out[0], o1 = static_cast<unsigned long long*>(c.out[1])](
                 int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (who == 0)
        return check(count_if(temp, bytes, IteratorValue::counting(std::int64_t{0}),
                              IteratorValue::discard(), o0, n, s),
                     "ours");
      check_rt(cub::DeviceSelect::If(temp, bytes, Counting(0), ::cuda::discard_iterator{}, o1,
                                     static_cast<std::int64_t>(n), ModThree<1>{}, s),
               "cub");
    };
    return c;
  });

  ca::three_way_partition::Spec part;
  part.type = ScalarType::int64;
  part.first_op = mod_three(0);
  part.second_op = mod_three(1);
  part.input = Iterator::counting();
  part.unselected_output = Iterator::discard();
  part.selected_type = ScalarType::int64;
  const auto& partition_indices = b.acquire(part);
  // Ours and CUB's: the two parts (n each) and the two counts.
  bench::run_case("partition_indices", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<std::int64_t>(2 * n + 2, owned);
    c.call = [&, n, o0 = static_cast<std::int64_t*>(c.out[0]),
              o1 = static_cast<std::int64_t*>(c.out[1])](int who, void* temp, std::size_t& bytes,
                                                        cudaStream_t s) {
      if (who == 0)
        return check(partition_indices(temp, bytes, IteratorValue::counting(std::int64_t{0}), o0,
                                       o0 + n, IteratorValue::discard(), o0 + 2 * n, n, s),
                     "ours");
      check_rt(cub::DevicePartition::If(temp, bytes, Counting(0), o1, o1 + n,
                                        ::cuda::discard_iterator{}, o1 + 2 * n,
                                        static_cast<std::int64_t>(n), ModThree<0>{},
                                        ModThree<1>{}, s),
               "cub");
    };
    return c;
  });

  ca::binary_search::Spec search = ca::binary_search::lower_bound(ScalarType::int64);
  search.values_in = Iterator::counting();
  search.output = Iterator::reverse();
  const auto& lower_bound_range = b.acquire(search);
  constexpr std::uint64_t kRange = 1u << 20;
  std::vector<std::int64_t> h_range(kRange);
  std::uint64_t seed = 21;
  for (auto& x : h_range) x = static_cast<std::int64_t>(bench::splitmix(seed) % (1ull << 29));
  std::sort(h_range.begin(), h_range.end());
  const std::int64_t* range = bench::device_copy(h_range);
  bench::run_case("lower_bound_range", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    Case c = bench::with_outputs<std::int64_t>(n, owned);
    c.call = [&, n, o0 = c.out[0], o1 = static_cast<std::int64_t*>(c.out[1])](
                 int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (who == 0)
        return check(lower_bound_range(temp, bytes, range, kRange,
                                       IteratorValue::counting(std::int64_t{0}), n,
                                       IteratorValue::reverse(o0), s),
                     "ours");
      check_rt(cub::DeviceFind::LowerBound(temp, bytes, range, kRange, Counting(0), n,
                                           ::cuda::std::make_reverse_iterator(o1 + n),
                                           ::cuda::std::less<>{}, ::cuda::stream_ref{s}),
               "cub");
    };
    return c;
  });
  cudaFree(const_cast<std::int64_t*>(range));

  ca::histogram_even::Spec hist;
  hist.type = ScalarType::float32;
  hist.samples = Iterator::transform(
      Operator::custom("square_f", "__device__ float square_f(float x) { return x * x; }"));
  const auto& histogram_squares = b.acquire(hist);
  const float lower = 0.0f, upper = 1.0e12f;
  std::uint64_t hist_seed = 29;
  bench::run_case("histogram_squares", b, [&](std::uint64_t n, std::vector<void*>& owned) {
    float* x = bench::device_copy(bench::random_keys<float>(n, hist_seed));
    owned.push_back(x);
    Case c = bench::with_outputs<int>(256, owned);
    c.call = [&, n, x, o0 = c.out[0], o1 = static_cast<int*>(c.out[1])](
                 int who, void* temp, std::size_t& bytes, cudaStream_t s) {
      if (who == 0)
        return check(histogram_squares(temp, bytes, IteratorValue::transform(x), o0, 257, &lower,
                                       &upper, n, s),
                     "ours");
      check_rt(cub::DeviceHistogram::HistogramEven(temp, bytes, ::cuda::transform_iterator(x, Square{}),
                                                   o1, 257, lower, upper, static_cast<int>(n), s),
               "cub");
    };
    return c;
  });
  return 0;
}
