// Bad arguments, missing / foreign-owned / unsafe cache directories, clear's
// confirmation, --version: clear one-line errors and the documented exit codes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "cccl_cache/algos/registry.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(CliErrors, BadArgumentsAreUsageErrors) {
  TempDir dir;
  const std::string d = dir.path().string();
  for (std::vector<std::string> args : {std::vector<std::string>{},
                                        {"frobnicate"},
                                        {"ls", "--bogus"},
                                        {"inspect"},
                                        {"ls", "--arch", "sm_x"},
                                        {"stats", "--json", "--prometheus"},
                                        {"prewarm"},
                                        {"--config", d + "/missing.toml", "ls"}}) {
    args.insert(args.begin(), {"--cache-dir", d});
    auto r = run_cli(args);
    EXPECT_EQ(r.code, 2) << testing::PrintToString(args) << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("cccl-cache: ", 0), 0u) << r.err;
  }
}

TEST(CliErrors, MissingCacheDirectory) {
  TempDir dir;
  const auto missing = (dir.path() / "absent").string();
  for (const char* cmd : {"ls", "stats", "verify", "evict", "clear"}) {
    std::vector<std::string> args{"--cache-dir", missing, cmd};
    if (std::string(cmd) == "evict") args.insert(args.end(), {"--arch", "sm_90"});
    if (std::string(cmd) == "clear") args.push_back("--yes");
    auto r = run_cli(args);
    EXPECT_EQ(r.code, 3) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(missing));  // reading never creates it
}

TEST(CliErrors, ForeignOwnedCacheDirectory) {
  TempDir dir;
  std::string target;
  if (geteuid() == 0) {
    target = (dir.path() / "theirs").string();
    ASSERT_EQ(mkdir(target.c_str(), 0700), 0);
    ASSERT_EQ(chown(target.c_str(), 65534, 65534), 0);
  } else {
    target = "/usr";  // owned by root, never by a test user
  }
  auto r = run_cli({"--cache-dir", target, "ls"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("owned by uid"), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

TEST(CliErrors, WorldWritableCacheDirectory) {
  TempDir dir;
  ASSERT_EQ(chmod(dir.path().c_str(), 0777), 0);
  auto r = run_cli({"--cache-dir", dir.path().string(), "stats"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("writable by every user"), std::string::npos) << r.err;
  chmod(dir.path().c_str(), 0700);
}

TEST(CliErrors, UnwritableCacheDirectoryForWritingCommands) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes everywhere";
  TempDir dir;
  put_build(dir.path(), real_build(90));
  ASSERT_EQ(chmod(dir.path().c_str(), 0500), 0);
  auto r = run_cli({"--cache-dir", dir.path().string(), "evict", "--arch", "sm_90"});
  chmod(dir.path().c_str(), 0700);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("not writable"), std::string::npos) << r.err;
}

TEST(CliErrors, ReadOnlyConfigRefusesWritingCommands) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  const auto cfg = dir.path() / "ro.toml";
  { std::ofstream(cfg) << "read_only = true\n"; }
  for (std::vector<std::string> args : {std::vector<std::string>{"evict", "--arch", "sm_90"},
                                        {"clear", "--yes"},
                                        {"verify", "--repair"}}) {
    args.insert(args.begin(), {"--config", cfg.string(), "--cache-dir", dir.path().string()});
    auto r = run_cli(args);
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("not writable (read_only is set"), std::string::npos) << r.err;
  }
  // Reading still works, and nothing was removed.
  auto ls = run_cli({"--config", cfg.string(), "--cache-dir", dir.path().string(), "ls", "--json"});
  ASSERT_EQ(ls.code, 0) << ls.err;
  EXPECT_EQ(ls.json()["count"], 1);
}

TEST(CliClear, RefusesWithoutYesWhenNotInteractive) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  auto no = run_cli({"--cache-dir", dir.path().string(), "clear"});
  EXPECT_EQ(no.code, 2);
  EXPECT_NE(no.err.find("--yes"), std::string::npos) << no.err;
  EXPECT_EQ(run_cli({"--cache-dir", dir.path().string(), "ls", "--json"}).json()["count"], 1);
  auto yes = run_cli({"--cache-dir", dir.path().string(), "clear", "--yes"});
  EXPECT_EQ(yes.code, 0) << yes.err;
  EXPECT_NE(yes.out.find("removed 1 entries"), std::string::npos) << yes.out;
  EXPECT_EQ(run_cli({"--cache-dir", dir.path().string(), "ls", "--json"}).json()["count"], 0);
}

TEST(CliErrors, MalformedConfigFileIsAUsageError) {
  TempDir dir;
  const auto cfg = dir.path() / "cfg.toml";
  { std::ofstream(cfg) << "max_size = \"lots\"\n"; }
  auto r = run_cli({"--config", cfg.string(), "--cache-dir", dir.path().string(), "stats"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("max_size"), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

// The shared part and each algorithm's ABI word: together, each algorithm's fingerprint.
TEST(CliVersion, PrintsTheToolchainFingerprint) {
  auto r = run_cli({"--version"});
  EXPECT_EQ(r.code, 0);
  const auto& tc = algos::Toolchain::current();
  EXPECT_NE(r.out.find("toolchain: " + tc.shared_fingerprint() + "\n"), std::string::npos) << r.out;
  for (const auto& a : algos::algorithms()) {
    const auto fp = tc.fingerprint(a.name);
    EXPECT_NE(r.out.find(" " + std::string(a.name) + "=" +
                         std::string(algos::split_fingerprint(fp).abi)),
              std::string::npos)
        << a.name << ": " << r.out;
  }
}

TEST(CliGlobals, CacheDirAfterTheCommandAndFromTheEnvironmentConfig) {
  TempDir dir;
  const CacheKey k = put_build(dir.path(), real_build(90));
  auto after = run_cli({"ls", "--json", "--cache-dir", dir.path().string()});
  ASSERT_EQ(after.code, 0) << after.err;
  EXPECT_EQ(after.json()["entries"][0]["key"], k.to_string());
  // --config names a TOML file whose `dir` is used when --cache-dir is absent.
  const auto cfg = dir.path() / "cfg.toml";
  { std::ofstream(cfg) << "dir = \"" << dir.path().string() << "\"\n"; }
  auto viacfg = run_cli({"--config", cfg.string(), "stats", "--json"});
  ASSERT_EQ(viacfg.code, 0) << viacfg.err;
  EXPECT_EQ(viacfg.json()["entries"], 1);
}

}  // namespace
}  // namespace cccl_cache::test
