// Merge sort on a GPU: output equals std::stable_sort (CUB's merge sort is stable)
// for keys-only and pairs, int32/int64/float32/float64, less/greater/custom; fresh
// (build -> bind) and store-loaded (store -> deserialize -> bind) executables give
// bitwise-identical outputs and identical temp-storage sizes. Skips without a GPU.
// Every spec is built once (in parallel) into a store in a temp dir.
#include <cuda.h>
#include <gtest/gtest.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "gpu_support.hpp"

namespace {

using namespace test_support;
namespace ms = cccl_cache::algos::merge_sort;
using cccl_cache::algos::AlgorithmCache;
using cccl_cache::algos::Comparator;
using cccl_cache::algos::ComparatorKind;
using cccl_cache::algos::ScalarType;

std::string key_spelling(ScalarType t) {
  switch (t) {
    case ScalarType::int32:
      return "int";
    case ScalarType::int64:
      return "long long";
    case ScalarType::float32:
      return "float";
    default:
      return "double";
  }
}

Comparator custom_for(ScalarType key) {
  const std::string k = key_spelling(key);
  if (key == ScalarType::float32)
    return Comparator::custom(
        "abs_less", "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }");
  if (key == ScalarType::float64)
    return Comparator::custom(
        "abs_less", "__device__ bool abs_less(double a, double b) { return fabs(a) < fabs(b); }");
  return Comparator::custom("low_byte_less", "__device__ bool low_byte_less(" + k + " a, " + k +
                                                 " b) { return (a & 255) < (b & 255); }");
}

ms::Spec make_spec(ScalarType key, ScalarType value, ComparatorKind cmp,
                   ScalarType offset = ScalarType::int64) {
  ms::Spec s;
  s.key_type = key;
  s.value_type = value;
  s.offset_type = offset;
  s.comparator = cmp == ComparatorKind::less      ? Comparator::less()
                 : cmp == ComparatorKind::greater ? Comparator::greater()
                                                  : custom_for(key);
  return s;
}

std::vector<ms::Spec> all_specs() {
  std::vector<ms::Spec> specs;
  for (ScalarType key :
       {ScalarType::int32, ScalarType::int64, ScalarType::float32, ScalarType::float64})
    for (ScalarType value : {ScalarType::none, ScalarType::uint32})
      for (ComparatorKind cmp :
           {ComparatorKind::less, ComparatorKind::greater, ComparatorKind::custom})
        specs.push_back(make_spec(key, value, cmp));
  specs.push_back(make_spec(ScalarType::float32, ScalarType::uint64, ComparatorKind::less));
  specs.push_back(
      make_spec(ScalarType::float32, ScalarType::none, ComparatorKind::less, ScalarType::int32));
  specs.push_back(make_spec(ScalarType::int64, ScalarType::uint32, ComparatorKind::greater,
                            ScalarType::uint32));
  return specs;
}

// Built once per process: fresh build results (in memory) and a store holding them.
using Built = BuiltStore<ms::Spec, ms::BuildResult>;

Built& built() {
  static Built b = build_into_temp_store<ms::BuildResult>(
      "cccl-cache-gpu-test", all_specs(), [](const ms::Spec& s) { return ms::build(s, gpu().cc); },
      [](const ms::Spec& s) { return ms::summary(s); },
      [](cccl_cache::Store& store, const ms::Spec& s, const ms::BuildResult& fresh) {
        return put_build(store, ms::cache_key(s, gpu().cc), algorithm_name(ms::Spec::kAlgorithm),
                         ms::summary(s), fresh.record.toolchain, serialize(fresh));
      },
      "merge sorts");
  return b;
}

template <class K>
std::vector<K> random_keys(std::uint64_t n, std::mt19937_64& rng) {
  std::vector<K> keys(n);
  if constexpr (std::is_floating_point_v<K>) {
    std::uniform_int_distribution<int> dist(-400000,
                                            400000);  // quarter steps: duplicates, -x and x
    for (auto& k : keys) k = static_cast<K>(dist(rng)) * K(0.25);
  } else {
    std::uniform_int_distribution<K> dist(-(K(1) << 20), K(1) << 20);
    for (auto& k : keys) k = dist(rng);
  }
  return keys;
}

template <class K>
bool host_compare(ComparatorKind kind, K a, K b) {
  if (kind == ComparatorKind::less) return a < b;
  if (kind == ComparatorKind::greater) return a > b;
  if constexpr (std::is_floating_point_v<K>)
    return std::fabs(a) < std::fabs(b);
  else
    return (a & 255) < (b & 255);
}

struct Output {
  std::size_t temp_bytes = 0;
  std::vector<std::byte> keys, values;
};

// Sorts with `exe`; in_place: keys/values sorted in their input buffers.
template <class K>
Output run_sort(const ms::Executable& exe, const std::vector<K>& keys,
                const std::vector<std::byte>& values, std::size_t value_size, bool in_place,
                CUstream stream) {
  const std::uint64_t n = keys.size();
  Output out;
  EXPECT_EQ(exe(nullptr, out.temp_bytes, nullptr, nullptr, nullptr, nullptr, n, stream),
            CUDA_SUCCESS);
  EXPECT_EQ(out.temp_bytes, exe.temp_storage_bytes(n));
  DeviceBuffer d_keys_in(n * sizeof(K)), d_keys_out(n * sizeof(K));
  DeviceBuffer d_vals_in(n * value_size), d_vals_out(n * value_size), d_temp(out.temp_bytes);
  EXPECT_EQ(cuMemcpyHtoD(d_keys_in.ptr, keys.data(), n * sizeof(K)), CUDA_SUCCESS);
  EXPECT_EQ(cuMemsetD8(d_keys_out.ptr, 0xab, std::max<std::uint64_t>(n * sizeof(K), 1)),
            CUDA_SUCCESS);
  if (value_size) {
    EXPECT_EQ(cuMemcpyHtoD(d_vals_in.ptr, values.data(), n * value_size), CUDA_SUCCESS);
    EXPECT_EQ(cuMemsetD8(d_vals_out.ptr, 0xab, std::max<std::uint64_t>(n * value_size, 1)),
              CUDA_SUCCESS);
  }
  const DeviceBuffer& keys_dst = in_place ? d_keys_in : d_keys_out;
  const DeviceBuffer& vals_dst = in_place ? d_vals_in : d_vals_out;
  std::size_t temp_bytes = out.temp_bytes;
  EXPECT_EQ(exe(d_temp.get(), temp_bytes, d_keys_in.get(), value_size ? d_vals_in.get() : nullptr,
                keys_dst.get(), value_size ? vals_dst.get() : nullptr, n, stream),
            CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  out.keys.resize(n * sizeof(K));
  out.values.resize(n * value_size);
  EXPECT_EQ(cuMemcpyDtoH(out.keys.data(), keys_dst.ptr, n * sizeof(K)), CUDA_SUCCESS);
  if (value_size)
    EXPECT_EQ(cuMemcpyDtoH(out.values.data(), vals_dst.ptr, n * value_size), CUDA_SUCCESS);
  return out;
}

template <class K>
void check_spec(std::size_t index, const std::vector<std::uint64_t>& sizes) {
  Built& b = built();
  ASSERT_TRUE(b.error.empty()) << b.error;
  const ms::Spec& spec = b.specs[index];
  SCOPED_TRACE(ms::summary(spec));
  auto fresh = ms::bind(b.fresh[index], 0);
  ASSERT_TRUE(fresh) << fresh.error().describe();
  AlgorithmCache loader(b.store);  // a new cache: this must be a store hit
  auto loaded = loader.acquire(spec, 0);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(loader.stats().builds, 0u);
  EXPECT_EQ(loader.stats().store_hits, 1u);
  const std::size_t value_size = cccl_cache::algos::size_of(spec.value_type);
  CUstream stream = nullptr;
  // Blocking: the legacy-stream copies and memsets before each call are ordered before it.
  ASSERT_CU(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
  std::mt19937_64 rng(1234 + index);
  for (std::uint64_t n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = random_keys<K>(n, rng);
    std::vector<std::byte> values(n * value_size);
    // The stable order: sort (key, index) pairs, ties broken by the index.
    std::vector<std::pair<K, std::uint64_t>> order(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      order[i] = {keys[i], i};
      std::memcpy(&values[i * value_size], &i, value_size);  // the value is the index
    }
    const ComparatorKind kind = spec.comparator.kind;
    std::sort(order.begin(), order.end(), [kind](const auto& a, const auto& b) {
      if (host_compare<K>(kind, a.first, b.first)) return true;
      if (host_compare<K>(kind, b.first, a.first)) return false;
      return a.second < b.second;
    });
    std::vector<K> want_keys(n);
    std::vector<std::byte> want_values(n * value_size);
    for (std::uint64_t i = 0; i < n; ++i) {
      want_keys[i] = order[i].first;
      std::memcpy(&want_values[i * value_size], &values[order[i].second * value_size], value_size);
    }
    const Output f = run_sort<K>(*fresh, keys, values, value_size, /*in_place=*/false, nullptr);
    const Output l = run_sort<K>(**loaded, keys, values, value_size, /*in_place=*/true, stream);
    EXPECT_EQ(f.temp_bytes, l.temp_bytes);
    ASSERT_EQ(f.keys.size(), n * sizeof(K));
    EXPECT_EQ(std::memcmp(f.keys.data(), want_keys.data(), f.keys.size()), 0)
        << "fresh keys differ from std::stable_sort";
    EXPECT_TRUE(f.keys == l.keys) << "fresh and loaded keys differ";
    EXPECT_TRUE(f.values == want_values) << "fresh values differ from std::stable_sort";
    EXPECT_TRUE(f.values == l.values) << "fresh and loaded values differ";
  }
  cuStreamDestroy(stream);
}

void check_index(std::size_t i, const std::vector<std::uint64_t>& sizes) {
  switch (built().specs[i].key_type.scalar) {
    case ScalarType::int32:
      return check_spec<std::int32_t>(i, sizes);
    case ScalarType::int64:
      return check_spec<std::int64_t>(i, sizes);
    case ScalarType::float32:
      return check_spec<float>(i, sizes);
    default:
      return check_spec<double>(i, sizes);
  }
}

const std::vector<std::uint64_t> kSizes = {0, 1, 2, 2047, 2048, 1000003};

TEST(ExecutableGpu, KeysOnlyMatchStableSortFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for (std::size_t i = 0; i < built().specs.size(); ++i)
    if (built().specs[i].keys_only()) check_index(i, kSizes);
}

TEST(ExecutableGpu, PairsMatchStableSortFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  for (std::size_t i = 0; i < built().specs.size(); ++i)
    if (!built().specs[i].keys_only()) check_index(i, kSizes);
}

TEST(ExecutableGpu, LargeSortsOf2Pow26) {
  SKIP_WITHOUT_GPU();
  const auto& specs = built().specs;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const bool float_keys =
        specs[i] == make_spec(ScalarType::float32, ScalarType::none, ComparatorKind::less);
    const bool int64_pairs =
        specs[i] == make_spec(ScalarType::int64, ScalarType::uint32, ComparatorKind::less);
    if (float_keys || int64_pairs) check_index(i, {1ull << 26});
  }
}

TEST(ExecutableGpu, TooSmallTempStorageIsInvalidValue) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(built().error.empty()) << built().error;
  auto exe = ms::bind(built().fresh[0], 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  const std::uint64_t n = 10000;
  DeviceBuffer keys(n * 8), temp(exe->temp_storage_bytes(n));
  std::size_t bytes = exe->temp_storage_bytes(n) - 1;
  EXPECT_EQ((*exe)(temp.get(), bytes, keys.get(), nullptr, keys.get(), nullptr, n, nullptr),
            CUDA_ERROR_INVALID_VALUE);
}

TEST(ExecutableGpu, BindRejectsAnotherCcAndAbsentDevice) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(built().error.empty()) << built().error;
  ms::BuildResult other = built().fresh[0];
  other.record.cc = gpu().cc == 80 ? 90 : 80;
  auto wrong_cc = ms::bind(other, 0);
  ASSERT_FALSE(wrong_cc);
  EXPECT_EQ(wrong_cc.error().code, cccl_cache::ErrorCode::unsupported);
  auto no_device = ms::bind(built().fresh[0], 4096);
  ASSERT_FALSE(no_device);
  EXPECT_EQ(no_device.error().code, cccl_cache::ErrorCode::driver);
}

TEST(ExecutableGpu, AlgorithmCacheRepeatReturnsTheSameExecutable) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(built().error.empty()) << built().error;
  AlgorithmCache cache(built().store);
  auto a = cache.acquire(built().specs[0], 0);
  auto b = cache.acquire(built().specs[0], 0);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(cache.stats().memory_hits, 1u);
  EXPECT_EQ(cache.stats().store_hits, 1u);
  EXPECT_EQ(cache.stats().builds, 0u);
}

// After fork() the child must not get (or launch, or unload) the parent's executables:
// CUDA state is not inherited. The cache answers a driver error naming fork, a parent's
// executable refuses to launch, and dropping it in the child leaves the parent's
// handles alone; the parent keeps working.
TEST(ExecutableGpu, ForkedChildNeverUsesTheParentsExecutables) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(built().error.empty()) << built().error;
  AlgorithmCache cache(built().store);
  auto exe = cache.acquire(built().specs[0], 0);
  ASSERT_TRUE(exe) << exe.error().describe();
  auto bound = ms::bind(built().fresh[0], 0);  // one the child holds the only reference to
  ASSERT_TRUE(bound) << bound.error().describe();
  auto own = std::make_unique<ms::Executable>(std::move(*bound));
  const std::uint64_t n = 1000;
  DeviceBuffer keys(n * 8), temp((*exe)->temp_storage_bytes(n));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(120);
    int code = 0;
    auto again = cache.acquire(built().specs[0], 0);
    if (again)
      code = 1;
    else if (again.error().message.find("fork") == std::string::npos)
      code = 2;
    std::size_t bytes = (*exe)->temp_storage_bytes(n);
    if (code == 0 && (**exe)(temp.get(), bytes, keys.get(), nullptr, keys.get(), nullptr, n,
                             nullptr) != CUDA_ERROR_NOT_INITIALIZED)
      code = 3;
    bytes = own->temp_storage_bytes(n);
    if (code == 0 && (*own)(temp.get(), bytes, keys.get(), nullptr, keys.get(), nullptr, n,
                            nullptr) != CUDA_ERROR_NOT_INITIALIZED)
      code = 4;
    own.reset();  // destroyed in the child: must not call the driver with the parent's handles
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "1: the child got an executable, 2: its error does not say fork, 3/4: it launched";
  std::size_t bytes = own->temp_storage_bytes(n);
  EXPECT_EQ((*own)(temp.get(), bytes, keys.get(), nullptr, keys.get(), nullptr, n, nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(nullptr), CUDA_SUCCESS);
}

// libalgos loads the driver itself (dlopen + cuGetProcAddress): its device queries
// agree with the driver this test links; without a GPU (here: the stub) it sees none.
TEST(ExecutableGpu, DeviceQueriesAgreeWithTheLinkedDriver) {
  auto n = cccl_cache::algos::device_count();
  ASSERT_TRUE(n.has_value()) << n.error().describe();
  if (!gpu().present) {
    EXPECT_EQ(*n, 0);
    EXPECT_FALSE(cccl_cache::algos::driver_status());
    GTEST_SKIP() << "no CUDA device";
  }
  int count = 0;
  ASSERT_CU(cuDeviceGetCount(&count));
  EXPECT_EQ(*n, count);
  EXPECT_TRUE(cccl_cache::algos::driver_status());
  auto cc = cccl_cache::algos::device_cc(0);
  ASSERT_TRUE(cc.has_value()) << cc.error().describe();
  EXPECT_EQ(*cc, gpu().cc);
  auto absent = cccl_cache::algos::device_cc(count);
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().code, cccl_cache::ErrorCode::driver);
  EXPECT_NE(absent.error().message.find("no CUDA device"), std::string::npos)
      << absent.error().message;
}

}  // namespace
