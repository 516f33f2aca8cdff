// The installed programs start without an NVIDIA driver: neither cccl-cache nor
// cccl-cache-demo links libcuda.so.1 (libalgos loads it at run time), and the
// commands that need no GPU (--version, prewarm --arch, ls, verify) work there.
// On a machine with a driver the same commands must work too; the no-driver
// message is checked only where libcuda.so.1 is absent.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cccl_cache/algos/device.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

// The DT_NEEDED entries of an ELF file, as readelf prints them.
std::string needed_of(const std::string& binary) {
  std::string out;
  if (FILE* p = popen(("readelf -d '" + binary + "' 2>&1").c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p))
      if (std::string line = buf; line.find("(NEEDED)") != std::string::npos) out += line;
    pclose(p);
  }
  return out;
}

TEST(CliNoDriver, ProgramsDoNotLinkLibcuda) {
  for (const std::string binary : {CCCL_CACHE_CLI_PATH, CCCL_CACHE_DEMO_PATH}) {
    const std::string needed = needed_of(binary);
    ASSERT_NE(needed.find("libc.so"), std::string::npos) << "readelf failed for " << binary;
    EXPECT_EQ(needed.find("libcuda"), std::string::npos) << binary << ":\n" << needed;
  }
}

TEST(CliNoDriver, VersionPrewarmLsVerifyWork) {
  auto version = run_cli({"--version"});
  EXPECT_EQ(version.code, 0) << version.err;
  EXPECT_FALSE(version.out.empty());

  TempDir dir;
  const auto manifest = dir.path() / "m.toml";
  std::ofstream(manifest) << "[[merge_sort]]\nkeys = \"int32\"\n";
  const auto cache = (dir.path() / "cache").string();
  auto prewarm = run_cli(
      {"--cache-dir", cache, "prewarm", "--manifest", manifest.string(), "--arch", "sm_90"});
  ASSERT_EQ(prewarm.code, 0) << prewarm.out << prewarm.err;
  EXPECT_NE(prewarm.out.find("built 1"), std::string::npos) << prewarm.out;
  auto ls = run_cli({"--cache-dir", cache, "ls"});
  EXPECT_EQ(ls.code, 0) << ls.err;
  EXPECT_NE(ls.out.find("int32"), std::string::npos) << ls.out;
  auto verify = run_cli({"--cache-dir", cache, "verify"});
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
  for (const auto* r : {&version, &prewarm, &ls, &verify})
    EXPECT_EQ(r->err.find("libcuda"), std::string::npos) << r->err;
}

// What the library says where there is no driver (this process links libalgos too).
TEST(CliNoDriver, NoDriverIsZeroDevicesWithTheReason) {
  auto status = algos::driver_status();
  if (status) GTEST_SKIP() << "a driver is installed and initializes";
  auto count = algos::device_count();
  ASSERT_TRUE(count.has_value()) << count.error().describe();
  EXPECT_EQ(*count, 0);
  const std::string& m = status.error().message;
  if (m.find("no NVIDIA driver found") != std::string::npos)
    EXPECT_NE(m.find("builds and the store still work"), std::string::npos) << m;
  else
    EXPECT_EQ(m.rfind("cuInit: ", 0), 0u) << m;  // a driver without a usable device
}

}  // namespace
}  // namespace cccl_cache::test
