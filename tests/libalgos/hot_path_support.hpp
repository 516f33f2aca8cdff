// What the hot-path tests share: a global operator new that counts allocations while
// asked to, a recording stand-in for cuLaunchKernelEx, and the common fields of a bound
// LaunchContext. No GPU or driver is needed: kernels are stand-in handles and device
// pointers are never dereferenced by the host code.
//
// Include from exactly one translation unit per test binary: it defines the replaceable
// global operator new/delete (a second definition fails at link time). Each hot-path
// test is its own binary for that reason (tests/libalgos/CMakeLists.txt).
#pragma once

#include <cuda.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "core/launch.hpp"

namespace test_support {
inline std::atomic<bool> g_counting{false};
inline std::atomic<long> g_allocations{0};
}  // namespace test_support

// Counts every allocation of this test binary while g_counting is set.
void* operator new(std::size_t n) {
  if (test_support::g_counting.load(std::memory_order_relaxed))
    test_support::g_allocations.fetch_add(1);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace test_support {

// What a call returned and how many allocations it made.
template <class R>
struct Counted {
  R result;
  long allocations;
};

// Runs f() with every allocation counted.
template <class F>
auto count_allocations(F&& f) -> Counted<decltype(f())> {
  g_allocations = 0;
  g_counting = true;
  auto result = f();
  g_counting = false;
  return {result, g_allocations.load()};
}

// A launch as the recorder saw it.
struct Launch {
  CUfunction fn;
  unsigned grid_x, block_x, shared, num_attrs;
};
inline Launch launch_of(const CUlaunchConfig* config, CUfunction fn) {
  return {fn, config->gridDimX, config->blockDimX, config->sharedMemBytes, config->numAttrs};
}

// The launches recorded since the last clear(), of type Record (Launch, or a test's own
// that extends it). Reserved up front: recording must not allocate while allocations are
// counted.
template <class Record = Launch>
std::vector<Record>& recorded() {
  static std::vector<Record> v = [] {
    std::vector<Record> r;
    r.reserve(256);
    return r;
  }();
  return v;
}
inline std::vector<Launch>& launches() { return recorded<Launch>(); }

// The recording cuLaunchKernelEx: a launch without arguments is invalid.
inline CUresult record_launch(const CUlaunchConfig* config, CUfunction fn, void** params, void**) {
  if (params == nullptr || params[0] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  launches().push_back(launch_of(config, fn));
  return CUDA_SUCCESS;
}

// A launch that always fails as an out-of-resources launch does.
inline CUresult failing_launch(const CUlaunchConfig*, CUfunction, void**, void**) {
  return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
}

// What bind fixes for an H200-like device (132 SMs) at `ptx_version`, with `launch` as
// the driver's launch; the test adds its kernels (and any other field it needs).
inline cccl_cache::algos::detail::LaunchContext h200_context(decltype(&::cuLaunchKernelEx) launch,
                                                              int ptx_version = 900) {
  cccl_cache::algos::detail::LaunchContext c;
  c.launch = launch;
  c.ptx_version = ptx_version;
  c.dependent_launch = ptx_version >= 900;
  c.sm_count = 132;
  return c;
}

// Stand-in handles of the two kernels of an init-then-sweep dispatch (unique_by_key's
// compact init and sweep, scan_by_key's init and scan).
inline const CUfunction kInitKernel = reinterpret_cast<CUfunction>(0x4001);
inline const CUfunction kSweepKernel = reinterpret_cast<CUfunction>(0x4002);

// The recording cuLaunchKernelEx of such a dispatch: a launch of kInitKernel needs
// InitArgs arguments, any other MainArgs; decode(record, is_init, params) reads the test's
// Record (which extends Launch) from them, which is then recorded<Record>().
template <class Record, int InitArgs, int MainArgs, void (*Decode)(Record&, bool, void**)>
CUresult record_two_kernel_launch(const CUlaunchConfig* config, CUfunction fn, void** params,
                                  void**) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const bool init = fn == kInitKernel;
  for (int i = 0; i < (init ? InitArgs : MainArgs); ++i)
    if (params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Record r{launch_of(config, fn)};
  Decode(r, init, params);
  recorded<Record>().push_back(r);
  return CUDA_SUCCESS;
}

// h200_context with the two kernels bound: the init kernel at 128 threads, the sweep at
// 128 threads (the tests' tile: 128 x 8 items), and the grid's x limit.
inline cccl_cache::algos::detail::LaunchContext two_kernel_context(
    decltype(&::cuLaunchKernelEx) launch) {
  cccl_cache::algos::detail::LaunchContext c = h200_context(launch);
  c.max_grid_dim_x = INT_MAX;
  c.num_kernels = 2;
  c.kernels[0] = {kInitKernel, 128, 16, 0};
  c.kernels[1] = {kSweepKernel, 128, 8, 0};
  return c;
}

// Device addresses the host code only passes on.
inline void* device_address(std::uintptr_t a) { return reinterpret_cast<void*>(a); }

}  // namespace test_support
