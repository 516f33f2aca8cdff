// histogram_even on a GPU: results equal a host reference (CUB's bin arithmetic in the
// spec's types) for integer and float samples, byte samples, mixed level types, every
// counter type and both offset types, at 0, 1, 2, 1023, 1025, 2^20+3 and 2^26 samples
// (some outside [lower, upper): not counted) into 1, 2, 256, 257 and 2048 bins (both of
// CUB's paths: shared and global bins); fresh (build -> bind) and store-loaded
// (AlgorithmCache over a store) executables give bitwise-identical histograms. Skips
// without a GPU.
#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "cccl_cache/algos/histogram_even/executable.hpp"
#include "gpu_support.hpp"
#include "histogram_reference.hpp"

namespace {

using namespace test_support;
namespace he = cccl_cache::algos::histogram_even;
using cccl_cache::algos::ScalarType;

using S = ScalarType;
// With each spec its bounds (as doubles; converted to the level type).
struct Case {
  he::Spec spec;
  double lower, upper;
};
const Case kCases[] = {
    {{S::int32, S::none, S::int32, S::int32}, -1000, 5000},
    {{S::uint8, S::int32, S::uint32, S::int32}, 10, 250},
    {{S::float32, S::none, S::uint64, S::int64}, -10.5, 300.25},
    {{S::int16, S::none, S::int32, S::int64}, -300, 3000},
    {{S::float64, S::float64, S::uint32, S::int32}, 0.125, 1000.5},
};

std::vector<he::Spec> all_specs() {
  std::vector<he::Spec> v;
  for (const Case& c : kCases) v.push_back(c.spec);
  return v;
}

using Built = BuiltStore<he::Spec, he::BuildResult>;

Built& built() {
  static Built b = build_specs_for_gpu("cccl-cache-histogram-even-gpu", all_specs());
  return b;
}

// Samples spread over [lower - span/4, upper + span/4) (clamped to T): about a third
// outside the bounds, more at the ends of the array.
template <class T>
std::vector<T> samples(std::uint64_t n, double lower, double upper, std::mt19937_64& rng) {
  const double span = upper - lower;
  double lo = lower - span / 4, hi = upper + span / 4;
  lo = std::max(lo, static_cast<double>(std::numeric_limits<T>::lowest()));
  hi = std::min(hi, static_cast<double>(std::numeric_limits<T>::max()));
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> out(n);
  for (auto& x : out) x = static_cast<T>(u(rng));
  return out;
}

template <class T, class L, class C>
void check_all(const Case& c, const he::Executable& fresh, const he::Executable& loaded,
               CUstream stream, std::mt19937_64& rng) {
  const L lower = static_cast<L>(c.lower), upper = static_cast<L>(c.upper);
  for (std::uint64_t n : {0ull, 1ull, 2ull, 1023ull, 1025ull, (1ull << 20) + 3, 1ull << 26}) {
    const std::vector<T> in = samples<T>(n, c.lower, c.upper, rng);
    DeviceBuffer d_in(n * sizeof(T));
    if (n > 0) ASSERT_CU(cuMemcpyHtoD(d_in.ptr, in.data(), n * sizeof(T)));
    for (const int bins : {1, 2, 256, 257, 2048}) {
      if (n == (1ull << 26) && bins < 256) continue;  // the largest count: both paths once
      SCOPED_TRACE("n = " + std::to_string(n) + ", bins = " + std::to_string(bins));
      const std::vector<C> want = host_histogram<C>(in, lower, upper, bins);
      DeviceBuffer d_hist(bins * sizeof(C));
      auto run = [&](const he::Executable& exe) {
        std::size_t bytes = 0;
        EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, bins + 1, &lower, &upper, n, stream),
                  CUDA_SUCCESS);
        EXPECT_EQ(bytes, exe.temp_storage_bytes(n, bins + 1));
        DeviceBuffer temp(bytes);
        EXPECT_EQ(cuMemsetD8(d_hist.ptr, 0xab, bins * sizeof(C)), CUDA_SUCCESS);
        EXPECT_EQ(
            exe(temp.get(), bytes, d_in.get(), d_hist.get(), bins + 1, &lower, &upper, n, stream),
            CUDA_SUCCESS);
        EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
        return read_device<C>(d_hist.ptr, bins);
      };
      const std::vector<C> got = run(fresh);
      ASSERT_EQ(got, want) << "differs from the host reference";
      ASSERT_EQ(run(loaded), got) << "fresh and store-loaded differ";
    }
  }
}

// Whether T is the host type of `t`.
template <class T>
bool is_host_type(ScalarType t) {
  bool same = false;
  cccl_cache::algos::detail::on_host_type(
      t, [&](auto type) { same = std::is_same_v<typename decltype(type)::type, T>; });
  return same;
}

// kCases[i]'s check, instantiated for its (sample, level, counter) types only: a fan-out
// over every type triple costs minutes of compile time.
struct Check {
  void (*run)(const Case&, const he::Executable&, const he::Executable&, CUstream,
              std::mt19937_64&);
  bool (*matches)(const he::Spec&);
};
template <class T, class L, class C>
constexpr Check check_of() {
  return {&check_all<T, L, C>, [](const he::Spec& s) {
            return is_host_type<T>(s.type) && is_host_type<L>(s.levels()) &&
                   is_host_type<C>(s.counter_type);
          }};
}
const Check kChecks[] = {
    check_of<std::int32_t, std::int32_t, std::int32_t>(),
    check_of<std::uint8_t, std::int32_t, std::uint32_t>(),
    check_of<float, float, std::uint64_t>(),
    check_of<std::int16_t, std::int16_t, std::int32_t>(),
    check_of<double, double, std::uint32_t>(),
};
static_assert(std::size(kChecks) == std::size(kCases));

}  // namespace

TEST(HistogramEvenGpu, EverySpecMatchesTheHostReferenceFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for_each_fresh_and_loaded(built(), [](std::size_t i, const he::Executable& f,
                                        const he::Executable& l, CUstream stream) {
    std::mt19937_64 rng(53 + i);
    const Case& c = kCases[i];
    ASSERT_TRUE(kChecks[i].matches(c.spec)) << "case " << i << ": its check's types differ";
    kChecks[i].run(c, f, l, stream, rng);
  });
}

TEST(HistogramEvenGpu, BadCallsAreRefused) {
  SKIP_WITHOUT_GPU();
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  auto exe = he::bind(b.fresh[0], 0);  // int32 samples and offset
  ASSERT_TRUE(exe) << exe.error().describe();
  const std::int32_t lo = 0, hi = 100, min = std::numeric_limits<std::int32_t>::min(),
                     max = std::numeric_limits<std::int32_t>::max();
  std::size_t bytes = 0;
  const std::uint64_t too_many = std::uint64_t{1} << 31;
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 11, &lo, &hi, too_many, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(exe->temp_storage_bytes(too_many, 11), 0u);
  EXPECT_EQ(exe->temp_storage_bytes(100, 1), 0u);
  for (const int levels : {1, 0, -5})
    EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, levels, &lo, &hi, 100, nullptr),
              CUDA_ERROR_INVALID_VALUE)
        << levels << " levels";
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 11, &hi, &lo, 100, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 11, &lo, &lo, 100, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 11, nullptr, &hi, 100, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 11, &min, &max, 100, nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "bounds whose bin arithmetic overflows";
  DeviceBuffer buf(64);
  bytes = 1;
  EXPECT_EQ((*exe)(buf.get(), bytes, buf.get(), buf.get(), 11, &lo, &hi, 100000, nullptr),
            CUDA_ERROR_INVALID_VALUE)
      << "too small temp storage";
  he::Executable moved = std::move(*exe);
  EXPECT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, 11, &lo, &hi, 1, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_GT(moved.temp_storage_bytes(5, 11), 0u);
}
