// What the GPU tests share: the device (and a skip without one), device buffers, a store
// in a fresh temp dir, and every spec built once, in parallel, into that store.
#pragma once

#include <cuda.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/store.hpp"
#include "core/host_types.hpp"

namespace test_support {

// Device 0 with its primary context current, or `present` false.
struct Gpu {
  bool present = false;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  std::uint32_t cc = 0;
};

inline const Gpu& gpu() {
  static const Gpu g = [] {
    Gpu r;
    int count = 0, major = 0, minor = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0 ||
        cuDeviceGet(&r.dev, 0) != CUDA_SUCCESS ||
        cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, r.dev) !=
            CUDA_SUCCESS ||
        cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, r.dev) !=
            CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&r.ctx, r.dev) != CUDA_SUCCESS)
      return r;
    r.cc = static_cast<std::uint32_t>(major * 10 + minor);
    r.present = true;
    return r;
  }();
  if (g.present) cuCtxSetCurrent(g.ctx);
  return g;
}

#define SKIP_WITHOUT_GPU() \
  if (!::test_support::gpu().present) GTEST_SKIP() << "no CUDA device"

#define ASSERT_CU(call) ASSERT_EQ((call), CUDA_SUCCESS) << #call

// Device memory of at least `at_least` bytes; ptr 0 (and `status` the error) when the
// allocation failed.
struct DeviceBuffer {
  CUdeviceptr ptr = 0;
  CUresult status = CUDA_SUCCESS;
  explicit DeviceBuffer(std::size_t bytes, std::size_t at_least = 1) {
    status = cuMemAlloc(&ptr, std::max(bytes, at_least));
    if (status != CUDA_SUCCESS) ptr = 0;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr) cuMemFree(ptr);
  }
  void* get(std::size_t offset = 0) const { return reinterpret_cast<void*>(ptr + offset); }
};

// A store in a fresh temp dir, <temp>/<prefix>-<pid>/store; `dir` the <prefix>-<pid> one.
inline cccl_cache::Result<std::shared_ptr<cccl_cache::Store>> open_temp_store(
    const std::string& prefix, std::filesystem::path* dir = nullptr) {
  const auto d = std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  if (dir) *dir = d;
  cccl_cache::Config config = cccl_cache::Config::defaults();
  config.dir = d / "store";
  return cccl_cache::Store::open(config);
}

// Puts one build into `store`; the error, or empty.
template <class Key, class Toolchain, class Payload>
std::string put_build(cccl_cache::Store& store, const Key& key, std::string_view algorithm,
                      std::string_view summary, const Toolchain& toolchain, const Payload& payload) {
  cccl_cache::EntryMeta meta;
  meta.algorithm = algorithm;
  meta.summary = summary;
  meta.toolchain = toolchain;
  meta.payload_format = cccl_cache::algos::kBuildFormatVersion;
  auto put = store.put(key, meta, payload);
  return put ? std::string() : put.error().describe();
}

// Every spec built once for this process (fresh build results, in memory) and a store in
// a temp dir holding them; `error` names what failed first.
template <class Spec, class Fresh>
struct BuiltStore {
  std::filesystem::path dir;
  std::shared_ptr<cccl_cache::Store> store;
  std::vector<Spec> specs;
  std::vector<Fresh> fresh;
  std::string error;
};

// Opens a store (open_temp_store(prefix)), builds every spec, up to 16 at a time, and puts
// each build into the store. build(spec) -> Result<Fresh>; name(spec) -> the spec's text in
// an error; put(store, spec, fresh) -> put_build's error. With `what`, prints how long the
// builds took ("built N <what> in S s").
template <class Fresh, class Spec, class Build, class Name, class Put>
BuiltStore<Spec, Fresh> build_into_temp_store(const std::string& prefix, std::vector<Spec> specs,
                                              Build build, Name name, Put put,
                                              const char* what = nullptr) {
  BuiltStore<Spec, Fresh> r;
  auto store = open_temp_store(prefix, &r.dir);
  if (!store) {
    r.error = store.error().describe();
    return r;
  }
  r.store = *store;
  r.specs = std::move(specs);
  r.fresh.resize(r.specs.size());
  const auto t0 = std::chrono::steady_clock::now();
  const unsigned width = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  for (std::size_t begin = 0; begin < r.specs.size(); begin += width) {
    std::vector<std::future<cccl_cache::Result<Fresh>>> jobs;
    for (std::size_t i = begin; i < std::min(r.specs.size(), begin + width); ++i)
      jobs.push_back(std::async(std::launch::async, [&r, &build, i] { return build(r.specs[i]); }));
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      auto res = jobs[j].get();
      if (!res) {
        r.error = name(r.specs[begin + j]) + ": " + res.error().describe();
        return r;
      }
      r.fresh[begin + j] = std::move(*res);
    }
  }
  if (what)
    std::printf("built %zu %s in %.1f s\n", r.specs.size(), what,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  for (std::size_t i = 0; i < r.specs.size(); ++i)
    if (auto e = put(*r.store, r.specs[i], r.fresh[i]); !e.empty()) {
      r.error = std::move(e);
      return r;
    }
  return r;
}

// build_into_temp_store of `specs` for device 0's CC through the generic build, with each
// spec's cache key, algorithm name and summary: what every algorithm's GPU test fills its
// store with.
template <class Spec>
auto build_specs_for_gpu(const std::string& prefix, std::vector<Spec> specs) {
  using Fresh = cccl_cache::algos::Built<typename Spec::Algorithm>;
  return build_into_temp_store<Fresh>(
      prefix, std::move(specs), [](const Spec& s) { return cccl_cache::algos::build(s, gpu().cc); },
      [](const Spec& s) { return cccl_cache::algos::summary(s); },
      [](cccl_cache::Store& store, const Spec& s, const Fresh& fresh) {
        return put_build(store, cccl_cache::algos::cache_key(s, gpu().cc),
                         cccl_cache::algos::algorithm_name(Spec::kAlgorithm),
                         cccl_cache::algos::summary(s), fresh.record.toolchain, serialize(fresh));
      });
}

// The store of `Make()`'s fresh build (build_specs_for_gpu, its temp dir named by `prefix`
// and the algorithm), built once per process: what a test of one spec per algorithm uses.
template <auto Make>
const auto& built_once(const std::string& prefix) {
  using Spec = decltype(Make());
  static const auto b = build_specs_for_gpu(
      prefix + std::string(cccl_cache::algos::algorithm_name(Spec::kAlgorithm)), std::vector{Make()});
  return b;
}

// Host `h` copied into `d` / `n` items of `d` copied to the host (test failures on error).
template <class T>
void copy_to_device(const DeviceBuffer& d, const std::vector<T>& h) {
  if (!h.empty()) ASSERT_CU(cuMemcpyHtoD(d.ptr, h.data(), h.size() * sizeof(T)));
}
template <class T>
std::vector<T> copy_to_host(const DeviceBuffer& d, std::size_t n) {
  std::vector<T> h(n);
  if (n > 0) EXPECT_EQ(cuMemcpyDtoH(h.data(), d.ptr, n * sizeof(T)), CUDA_SUCCESS);
  return h;
}

// `want`'s items that `got` does not hold bitwise at the same index: how many, and the
// index of the first (want.size() where none).
template <class T>
std::pair<std::size_t, std::size_t> mismatches(const std::vector<T>& got,
                                               const std::vector<T>& want) {
  std::size_t wrong = 0, first = want.size();
  for (std::size_t k = 0; k < want.size(); ++k)
    if (k >= got.size() || std::memcmp(&got[k], &want[k], sizeof(T)) != 0)
      if (wrong++ == 0) first = k;
  return {wrong, first};
}

// n items of T zeroed on the device (at least one: an output a test reads back).
template <class T>
std::unique_ptr<DeviceBuffer> zeroed(std::uint64_t n) {
  auto d = std::make_unique<DeviceBuffer>(std::max<std::uint64_t>(n, 1) * sizeof(T));
  if (d->status == CUDA_SUCCESS)
    d->status = cuMemsetD8(d->ptr, 0, std::max<std::uint64_t>(n, 1) * sizeof(T));
  return d;
}

// Whether two host copies hold the same bytes (fresh and loaded outputs, a host reference).
template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// The results of a fresh (got[0]) and a store-loaded (got[1]) executable: got[0] holds
// `want` bitwise, item for item, and got[1] the same bytes as got[0].
template <class T>
void expect_fresh_and_loaded(const std::vector<T> (&got)[2], const std::vector<T>& want,
                             const char* what = "result") {
  EXPECT_EQ(got[0].size(), want.size()) << what;
  const auto [wrong, first] = mismatches(got[0], want);
  EXPECT_EQ(wrong, 0u) << what << ": first at " << first;
  EXPECT_TRUE(same_bytes(got[1], got[0])) << what << ": fresh and store-loaded differ";
}

// A device copy of `h`, kept alive by `keep`; its address.
template <class T>
const void* on_device(const std::vector<T>& h, std::vector<std::unique_ptr<DeviceBuffer>>& keep) {
  keep.push_back(std::make_unique<DeviceBuffer>(h.size() * sizeof(T)));
  copy_to_device(*keep.back(), h);
  return keep.back()->get();
}

// n integers uniform in [lo, hi] from `seed`, as T.
template <class T>
std::vector<T> random_values(std::size_t n, int lo, int hi, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

// Spec i of `b` bound on device 0 from its fresh build, and acquired by a new
// AlgorithmCache over b.store, which must be a store hit (checked: no build). Both are
// results for the test to assert on.
template <class Spec, class Fresh>
auto fresh_and_loaded(const BuiltStore<Spec, Fresh>& b, std::size_t i) {
  auto fresh = cccl_cache::algos::bind(b.fresh[i], 0);
  cccl_cache::algos::AlgorithmCache loader(b.store);
  auto loaded = loader.acquire(b.specs[i], 0);
  EXPECT_EQ(loader.stats().builds, 0u);
  EXPECT_EQ(loader.stats().store_hits, 1u);
  return std::pair{std::move(fresh), std::move(loaded)};
}

// For every spec i of `b` (which must hold no error): its fresh and store-loaded
// executables (fresh_and_loaded, both asserted bound), under a trace of its summary, given
// to check(i, fresh, loaded, stream). The stream is a blocking one: the synchronous
// copies and memsets a check makes on the legacy stream before a call (cuMemcpyHtoD may
// return before its DMA ends) are ordered before the call.
template <class Spec, class Fresh, class Check>
void for_each_fresh_and_loaded(const BuiltStore<Spec, Fresh>& b, Check check) {
  ASSERT_TRUE(b.error.empty()) << b.error;
  CUstream stream = nullptr;
  ASSERT_CU(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
  const std::unique_ptr<CUstream_st, CUresult (*)(CUstream)> destroy(stream, cuStreamDestroy);
  for (std::size_t i = 0; i < b.specs.size(); ++i) {
    SCOPED_TRACE(cccl_cache::algos::summary(b.specs[i]));
    auto [fresh, loaded] = fresh_and_loaded(b, i);
    ASSERT_TRUE(fresh) << fresh.error().describe();
    ASSERT_TRUE(loaded) << loaded.error().describe();
    check(i, *fresh, **loaded, stream);
  }
}

// For spec `index` of `b` and each of `counts` (traced): per_count(n, fresh, loaded, keep,
// stream) over its fresh and store-loaded executables (for_each_fresh_and_loaded), `keep`
// holding the device buffers that count's calls make.
template <class Spec, class Fresh, class Counts, class PerCount>
void for_each_count(const BuiltStore<Spec, Fresh>& b, std::size_t index, const Counts& counts,
                    PerCount per_count) {
  for_each_fresh_and_loaded(
      b, [&](std::size_t i, const auto& fresh, const auto& loaded, CUstream stream) {
        if (i != index) return;
        for (const std::uint64_t n : counts) {
          SCOPED_TRACE("n = " + std::to_string(n));
          std::vector<std::unique_ptr<DeviceBuffer>> keep;
          per_count(n, fresh, loaded, keep, stream);
        }
      });
}

// check(fresh, loaded, stream) for the fresh and store-loaded executables of the one spec
// Make() gives (built_once(prefix), for_each_fresh_and_loaded).
template <auto Make, class Check>
void with_fresh_and_loaded(const std::string& prefix, Check check) {
  for_each_fresh_and_loaded(built_once<Make>(prefix),
                            [&](std::size_t, const auto& fresh, const auto& loaded,
                                CUstream stream) { check(fresh, loaded, stream); });
}

// A call as the GPU tests make it: call(nullptr, bytes) is the size query, which must
// answer exe.temp_storage_bytes(n) (or temp_storage_bytes(), where the size is one for
// every count); then call(temp, bytes) with that much temp storage, and the stream
// synchronized.
template <class Exe, class Call>
void query_and_run(const Exe& exe, std::uint64_t n, CUstream stream, Call call) {
  std::size_t bytes = 0;
  EXPECT_EQ(call(nullptr, bytes), CUDA_SUCCESS);
  if constexpr (requires { exe.temp_storage_bytes(n); })
    EXPECT_EQ(bytes, exe.temp_storage_bytes(n));
  else
    EXPECT_EQ(bytes, exe.temp_storage_bytes());
  DeviceBuffer temp(bytes);
  EXPECT_EQ(call(temp.get(), bytes), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
}

// The custom key equality of the by-key tests: keys equal when they fall in one bucket
// of 8 (as int), and its host side.
inline cccl_cache::algos::Operator bucket_equality() {
  return cccl_cache::algos::Operator::custom(
      "same_bucket", "__device__ bool same_bucket(int a, int b) { return a / 8 == b / 8; }");
}
template <class K>
bool same_key(const cccl_cache::algos::Operator& equality, K a, K b) {
  if (equality.kind == cccl_cache::algos::OpKind::custom)
    return static_cast<int>(a) / 8 == static_cast<int>(b) / 8;
  return a == b;
}

// f(std::type_identity<T>{}) with T the host type of element type `t` (the integer and
// float types of 1 to 8 bytes); a test failure for any other type.
template <class F>
void with_host_type(cccl_cache::algos::ScalarType t, F&& f) {
  bool found = false;
  cccl_cache::algos::detail::on_host_type(t, [&](auto type) {
    found = true;
    f(type);
  });
  if (!found) ADD_FAILURE() << "no host type for " << cccl_cache::algos::name(t);
}

// f(std::type_identity<T>{}) with T the integer type of a count type `t` (int32, uint32,
// int64, uint64: the `selected` types); a test failure for any other type.
template <class F>
void with_count_type(cccl_cache::algos::ScalarType t, F&& f) {
  using S = cccl_cache::algos::ScalarType;
  switch (t) {
    case S::int32: return f(std::type_identity<std::int32_t>{});
    case S::uint32: return f(std::type_identity<std::uint32_t>{});
    case S::int64: return f(std::type_identity<std::int64_t>{});
    case S::uint64: return f(std::type_identity<std::uint64_t>{});
    default: ADD_FAILURE() << "not a count type: " << cccl_cache::algos::name(t);
  }
}

// n keys in runs: mostly single items and short runs, sometimes thousands; with
// `one_run` a single run over everything. A run's key differs from the previous run's
// (float runs of zero mix +0.0 and -0.0; narrow integer keys wrap, still a new key).
template <class K>
std::vector<K> keys_in_runs(std::uint64_t n, std::mt19937_64& rng, bool one_run = false) {
  std::vector<K> out(n);
  std::uint64_t i = 0;
  std::int64_t k = 0;
  while (i < n) {
    const std::uint64_t r = rng();
    const std::uint64_t len =
        one_run ? n : r % 8 == 0 ? 1 + r % 3000 : r % 2 == 0 ? 1 : 1 + r % 12;
    k += 1 + static_cast<std::int64_t>((r >> 20) % 3);
    for (std::uint64_t j = 0; j < len && i < n; ++j, ++i) {
      if constexpr (std::is_floating_point_v<K>)
        out[i] = (k % 50 == 0) ? (j % 2 ? K(-0.0) : K(0.0)) : static_cast<K>(k % 4096) / 4;
      else
        out[i] = static_cast<K>(k);
    }
  }
  return out;
}

// The first n elements of T at device address p (none for n 0).
template <class T>
std::vector<T> read_device(CUdeviceptr p, std::uint64_t n) {
  std::vector<T> v(n);
  if (n > 0) EXPECT_EQ(cuMemcpyDtoH(v.data(), p, n * sizeof(T)), CUDA_SUCCESS);
  return v;
}

}  // namespace test_support
