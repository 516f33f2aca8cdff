// The driver loaded at run time (device.hpp, src/cuda_driver.hpp): a program linked
// with libalgos, and not with libcuda, starts without an NVIDIA driver, maps no
// libcuda until asked, and reports "no NVIDIA driver found" / zero devices; the
// toolkit's stub in the driver's place is named as such. This binary must not link
// CUDA::cuda_driver (it would get the stub's rpath). Tests needing the absence of a
// driver skip where one is installed.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "cuda_driver.hpp"

namespace {

namespace algos = cccl_cache::algos;
namespace ms = cccl_cache::algos::merge_sort;
using cccl_cache::ErrorCode;

bool libcuda_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libcuda.so") != std::string::npos) return true;
  return false;
}

bool driver_missing() { return algos::detail::driver_load_status() == CUDA_ERROR_NO_DEVICE; }

// A result that passes bind's checks up to the device query (never loaded).
ms::BuildResult fake_result() {
  ms::BuildResult r;
  r.record.cc = 90;
  r.record.cubin = {std::byte{0x7f}, std::byte{'E'}, std::byte{'L'}, std::byte{'F'}};
  r.record.kernels = {"_ZN3cub30DeviceMergeSortBlockSortKernelE",
                      "_ZN3cub30DeviceMergeSortPartitionKernelE",
                      "_ZN3cub26DeviceMergeSortMergeKernelE"};
  r.policy.block_threads = 256;
  r.policy.items_per_tile = 256 * 17;
  return r;
}

// gtest_discover_tests runs every test in a fresh process, so nothing has loaded
// the driver yet here.
TEST(Device, DriverIsNotLoadedUntilAsked) {
  EXPECT_FALSE(libcuda_mapped()) << "libalgos (or this test) links libcuda.so.1";
  (void)algos::device_count();
  if (algos::driver_status()) EXPECT_TRUE(libcuda_mapped());
}

TEST(Device, WithoutDriverZeroDevicesAndTheReason) {
  if (!driver_missing()) GTEST_SKIP() << "libcuda.so.1 loads here";
  auto count = algos::device_count();
  ASSERT_TRUE(count.has_value()) << count.error().describe();
  EXPECT_EQ(*count, 0);
  auto status = algos::driver_status();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, ErrorCode::driver);
  const std::string& m = status.error().message;
  EXPECT_EQ(m.rfind("no NVIDIA driver found (libcuda.so.1 could not be loaded: ", 0), 0u) << m;
  EXPECT_NE(m.find("GPU operations are unavailable, builds and the store still work"),
            std::string::npos)
      << m;
  EXPECT_FALSE(algos::detail::driver());
}

TEST(Device, WithoutDriverDeviceCcAndBindSayNoDriver) {
  if (!driver_missing()) GTEST_SKIP() << "libcuda.so.1 loads here";
  const std::string expected = algos::driver_status().error().message;
  auto cc = algos::device_cc(0);
  ASSERT_FALSE(cc);
  EXPECT_EQ(cc.error().code, ErrorCode::driver);
  EXPECT_EQ(cc.error().message, expected);
  auto exe = ms::bind(fake_result(), 0);
  ASSERT_FALSE(exe);
  EXPECT_EQ(exe.error().code, ErrorCode::driver);
  EXPECT_EQ(exe.error().message, expected);
  int host = 0;
  auto where = algos::pointer_device(&host);
  ASSERT_FALSE(where);
  EXPECT_EQ(where.error().code, ErrorCode::driver);
  EXPECT_EQ(where.error().message, expected);
}

TEST(Device, HostMemoryIsNotDeviceMemory) {
  auto count = algos::device_count();
  if (!count || *count == 0) GTEST_SKIP() << "no CUDA device";
  int host = 0;
  auto where = algos::pointer_device(&host);
  ASSERT_FALSE(where);
  EXPECT_EQ(where.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(where.error().message, "not device memory (host memory)");
}

TEST(Device, DriverErrorNamesCodesWithOrWithoutDriver) {
  const auto e = algos::detail::driver_error("cuInit", CUDA_ERROR_NO_DEVICE);
  EXPECT_EQ(e.code, ErrorCode::driver);
  if (algos::detail::driver())
    EXPECT_EQ(e.message.rfind("cuInit: CUDA_ERROR_NO_DEVICE (", 0), 0u) << e.message;
  else
    EXPECT_EQ(e.message, "cuInit: CUresult 100 (no description)");
}

// The toolkit's stub (soname libcuda.so.1) loaded first takes the driver's place, as
// in build-tree binaries linked with CUDA::cuda_driver on a machine without one: it
// is no driver. In a child process (re-executed), so that this one's table is unset.
TEST(DeviceDeathTest, StubIsNotADriver) {
  if (std::string(CCCL_CACHE_TEST_LIBCUDA_STUB).empty()) GTEST_SKIP() << "no driver stub found";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        if (dlopen(CCCL_CACHE_TEST_LIBCUDA_STUB, RTLD_NOW | RTLD_GLOBAL) == nullptr) std::_Exit(3);
        auto status = algos::driver_status();
        auto count = algos::device_count();
        const bool ok = !status && status.error().code == ErrorCode::driver &&
                        status.error().message.rfind("no NVIDIA driver found (", 0) == 0 &&
                        status.error().message.find("stub library") != std::string::npos &&
                        algos::detail::driver_load_status() == CUDA_ERROR_STUB_LIBRARY && count &&
                        *count == 0 && !ms::bind(fake_result(), 0);
        if (!status) std::fprintf(stderr, "%s\n", status.error().message.c_str());
        std::_Exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "stub library");
}

}  // namespace
