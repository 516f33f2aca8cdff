// NVRTC and nvJitLink are loaded at the first build, never at start-up nor for a store
// hit (jit_libraries.hpp): the fingerprint names them without loading them, a hit works
// where they cannot be loaded, a build there fails naming the library and the loader's
// reason, and no program linking libalgos has them as NEEDED. Each test runs in its own
// process (ctest), so "not loaded yet" is the process's own state.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/store.hpp"
#include "jit_libraries.hpp"
#include "test_util.hpp"

#ifndef CCCL_CACHE_TEST_PYTHON_MODULE
#define CCCL_CACHE_TEST_PYTHON_MODULE ""  // not built (CCCL_CACHE_BUILD_PYTHON=OFF, sanitizers)
#endif

namespace {

namespace fs = std::filesystem;
namespace algos = cccl_cache::algos;

const std::string kNvrtc = "libnvrtc.so." + std::to_string(CUDA_VERSION / 1000);
const std::string kNvJitLink = "libnvJitLink.so." + std::to_string(CUDA_VERSION / 1000);

// Whether a file named `name` is mapped into this process.
bool mapped(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  return text.str().find("/" + name) != std::string::npos;
}

std::uint64_t size_of(const fs::path& p) { return fs::file_size(fs::canonical(p)); }

using cccl_cache::test::TempDir;

std::shared_ptr<cccl_cache::Store> open_store(const fs::path& dir) {
  auto store = cccl_cache::Store::open(cccl_cache::test::test_config(dir));
  if (!store) throw std::runtime_error(store.error().describe());
  return *store;
}

algos::merge_sort::Spec hit_spec() { return {}; }  // float32 keys

TEST(JitLibraries, TheFingerprintNamesThemWithoutLoadingThem) {
  ASSERT_FALSE(mapped(kNvrtc)) << "NVRTC loaded at start-up";
  ASSERT_FALSE(mapped(kNvJitLink)) << "nvJitLink loaded at start-up";
  ::unsetenv("LD_LIBRARY_PATH");
  const auto& tc = algos::Toolchain::current();
  const fs::path dir = CCCL_CACHE_TEST_CUDA_LIBRARY_DIR;
  EXPECT_EQ(tc.nvrtc_library, kNvrtc + "@" + std::to_string(size_of(dir / kNvrtc)));
  EXPECT_EQ(tc.nvjitlink_library, kNvJitLink + "@" + std::to_string(size_of(dir / kNvJitLink)));
  EXPECT_EQ(tc.nvrtc_major, CUDA_VERSION / 1000);
  EXPECT_EQ(tc.nvrtc_minor, CUDA_VERSION % 1000 / 10);
  EXPECT_EQ(tc.nvjitlink_major, CUDA_VERSION / 1000);
  EXPECT_FALSE(mapped(kNvrtc));
  EXPECT_FALSE(mapped(kNvJitLink));

  // The first use loads exactly those files, and their versions are the fingerprint's.
  auto archs = algos::nvrtc_supported_ccs();
  ASSERT_TRUE(archs) << archs.error().describe();
  EXPECT_FALSE(archs->empty());
  EXPECT_TRUE(mapped(kNvrtc));
  const auto& rtc = algos::detail::nvrtc();
  ASSERT_TRUE(rtc) << rtc.error().describe();
  int major = 0, minor = 0;
  ASSERT_EQ((*rtc)->nvrtcVersion(&major, &minor), NVRTC_SUCCESS);
  EXPECT_EQ(major, tc.nvrtc_major);
  EXPECT_EQ(minor, tc.nvrtc_minor);
  const auto& link = algos::detail::nvjitlink();
  ASSERT_TRUE(link) << link.error().describe();
  unsigned lmajor = 0, lminor = 0;
  ASSERT_EQ((*link)->nvJitLinkVersion(&lmajor, &lminor), NVJITLINK_SUCCESS);
  EXPECT_EQ(static_cast<int>(lmajor), tc.nvjitlink_major);
  EXPECT_EQ(static_cast<int>(lminor), tc.nvjitlink_minor);
  EXPECT_TRUE(mapped(kNvJitLink));
}

// A machine whose NVRTC and nvJitLink cannot be loaded (here: files of the real names and
// sizes that are no libraries, first in LD_LIBRARY_PATH): the keys are the same as
// where they can, a store hit works and loads neither, a build fails naming them.
TEST(JitLibraries, AStoreHitNeedsNeitherAndABuildSaysWhyItCannot) {
  TempDir tmp;
  const fs::path store_dir = tmp.path() / "store";
  ::unsetenv("LD_LIBRARY_PATH");
  // The entry, built by another process with the real libraries.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    algos::AlgorithmCache cache(open_store(store_dir));
    auto built = cache.prewarm(hit_spec(), 90);
    ::_exit(built && *built ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the build in the child failed";

  const fs::path fake = tmp.path() / "lib";
  fs::create_directory(fake);
  const fs::path real = CCCL_CACHE_TEST_CUDA_LIBRARY_DIR;
  for (const auto& name : {kNvrtc, kNvJitLink}) {
    std::ofstream(fake / name) << "not a library";
    fs::resize_file(fake / name, size_of(real / name));  // sparse: no disk used
  }
  ::setenv("LD_LIBRARY_PATH", fake.c_str(), 1);

  algos::AlgorithmCache cache(open_store(store_dir));
  auto hit = cache.prewarm(hit_spec(), 90);
  ASSERT_TRUE(hit) << hit.error().describe();
  EXPECT_FALSE(*hit) << "a hit, not a build";
  EXPECT_EQ(cache.stats().store_hits, 1u);
  EXPECT_FALSE(mapped(kNvrtc));
  EXPECT_FALSE(mapped(kNvJitLink));
  if (algos::device_count().value_or(0) > 0) {
    auto exe = cache.acquire(hit_spec(), 0);  // bound from the store
    EXPECT_TRUE(exe) << exe.error().describe();
    EXPECT_FALSE(mapped(kNvrtc));
  }

  algos::reduce::Spec other;
  other.type = algos::ScalarType::int32;
  auto build = cache.prewarm(other, 90);
  ASSERT_FALSE(build);
  EXPECT_EQ(build.error().code, cccl_cache::ErrorCode::compile);
  const std::string& why = build.error().message;
  EXPECT_NE(why.find("NVRTC (" + (fake / kNvrtc).string() + ") could not be loaded"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("LD_LIBRARY_PATH"), std::string::npos) << why;
  // The same error on every later use, and no crash.
  auto again = algos::nvrtc_supported_ccs();
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().message, why);
}

// Programs linking libalgos (this one), the C ABI and the Python module: neither
// library is NEEDED (readelf -d lists what ld.so loads at start-up).
TEST(JitLibraries, NoBinaryLinksThem) {
  for (const std::string binary : {std::string("/proc/self/exe"), std::string(CCCL_CACHE_TEST_CAPI_LIBRARY),
                                   std::string(CCCL_CACHE_TEST_PYTHON_MODULE)}) {
    if (binary.empty()) continue;
    SCOPED_TRACE(binary);
    ASSERT_TRUE(fs::exists(binary));
    const std::string cmd = "readelf -d '" + binary + "'";
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ASSERT_EQ(::pclose(p), 0) << out;
    EXPECT_NE(out.find("(NEEDED)"), std::string::npos) << out;
    EXPECT_EQ(out.find("libnvrtc"), std::string::npos) << out;
    EXPECT_EQ(out.find("libnvJitLink"), std::string::npos) << out;
  }
}

}  // namespace
