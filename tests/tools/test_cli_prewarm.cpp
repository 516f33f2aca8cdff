// prewarm end to end with real NVRTC builds: idempotence, failures with reasons,
// manifest errors, and the no-GPU/no---arch error.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "cli_test_util.hpp"
#include "gpu_probe.hpp"

namespace cccl_cache::test {
namespace {

std::filesystem::path write(const TempDir& dir, const std::string& name, const std::string& text) {
  const auto p = dir.path() / name;
  std::ofstream(p) << text;
  return p;
}

TEST(CliPrewarm, SecondRunBuildsNothing) {
  TempDir dir;
  const auto manifest = write(dir, "m.toml", R"(
[[merge_sort]]
keys = ["float32", "int32"]
values = "none"
compare = "less"
offset = "int64"
)");
  const auto cache = (dir.path() / "cache").string();
  auto first = run_cli({"--cache-dir", cache, "prewarm", "--manifest", manifest.string(), "--arch",
                        "sm_90", "-j", "2", "--json"});
  ASSERT_EQ(first.code, 0) << first.out << first.err;
  auto j1 = first.json();
  EXPECT_EQ(j1["built"], 2);
  EXPECT_EQ(j1["already_cached"], 0);
  EXPECT_TRUE(j1["failed"].empty());

  auto second = run_cli(
      {"--cache-dir", cache, "prewarm", "--manifest", manifest.string(), "--arch", "sm_90"});
  ASSERT_EQ(second.code, 0) << second.out << second.err;
  EXPECT_NE(second.out.find("built 0, already cached 2, failed 0"), std::string::npos)
      << second.out;
  // Not a terminal: one plain line per build instead of a progress bar.
  EXPECT_NE(second.out.find("[2/2] cached merge_sort keys="), std::string::npos) << second.out;

  auto ls = run_cli({"--cache-dir", cache, "ls", "--json"}).json();
  ASSERT_EQ(ls["count"], 2);
  std::set<std::string> specs;
  for (const auto& e : ls["entries"]) {
    specs.insert(e["spec"].get<std::string>());
    EXPECT_EQ(e["cc"], 90);
  }
  EXPECT_EQ(specs, (std::set<std::string>{"merge_sort keys=float32 values=none compare=less offset=int64",
                                          "merge_sort keys=int32 values=none compare=less offset=int64"}));
  EXPECT_EQ(run_cli({"--cache-dir", cache, "verify"}).code, 0);
}

// An argsort (radix sort with a counting value input) from a manifest: built, listed
// with its values_in, its seventh kernel named by inspect, verified.
TEST(CliPrewarm, BuildsAnArgsort) {
  TempDir dir;
  const auto manifest = write(dir, "m.toml", R"(
[[radix_sort]]
keys = "float32"
values = "int32"
values_in = "counting"
)");
  const auto cache = (dir.path() / "cache").string();
  auto r = run_cli({"--cache-dir", cache, "prewarm", "--manifest", manifest.string(), "--arch",
                    "sm_90", "--json"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.json()["built"], 1);
  auto ls = run_cli({"--cache-dir", cache, "ls", "--json"}).json();
  ASSERT_EQ(ls["count"], 1);
  EXPECT_EQ(ls["entries"][0]["spec"],
            "radix_sort keys=float32 values=int32 descending=false offset=uint32 values_in=counting");
  auto inspect = run_cli({"--cache-dir", cache, "inspect", ls["entries"][0]["key"].get<std::string>(),
                          "--json"});
  ASSERT_EQ(inspect.code, 0) << inspect.out << inspect.err;
  const auto build = inspect.json()["build"];
  EXPECT_EQ(inspect.json()["check"], "ok");
  ASSERT_TRUE(build["kernels"].contains("materialize_values")) << build.dump();
  EXPECT_NE(build["kernels"]["materialize_values"].get<std::string>().find("cccl_cache_materialize"),
            std::string::npos);
  EXPECT_EQ(run_cli({"--cache-dir", cache, "verify"}).code, 0);
}

TEST(CliPrewarm, OnATerminalDrawsAProgressBarWithEta) {
  TempDir dir;
  const auto manifest = write(dir, "m.toml", "[[merge_sort]]\nkeys = \"float32\"\n");
  const auto cache = dir.path() / "cache";
  std::filesystem::create_directory(cache);
  std::filesystem::permissions(cache, std::filesystem::perms::owner_all);
  put_build(cache, real_build(90));
  auto r = run_cli_tty({"--cache-dir", cache.string(), "prewarm", "--manifest", manifest.string(),
                        "--arch", "sm_90"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\r\033[K[##############################] 1/1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ETA"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("[1/1] cached"), std::string::npos) << r.out;  // no plain lines
  EXPECT_NE(r.out.find("built 0, already cached 1, failed 0"), std::string::npos) << r.out;
}

TEST(CliClear, OnATerminalAsksFirst) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  auto no = run_cli_tty({"--cache-dir", dir.path().string(), "clear"}, "n\n");
  EXPECT_EQ(no.code, 0) << no.out;
  EXPECT_NE(no.out.find("Remove all 1 entries"), std::string::npos) << no.out;
  EXPECT_NE(no.out.find("nothing removed"), std::string::npos) << no.out;
  auto yes = run_cli_tty({"--cache-dir", dir.path().string(), "clear"}, "y\n");
  EXPECT_EQ(yes.code, 0) << yes.out;
  EXPECT_NE(yes.out.find("removed 1 entries"), std::string::npos) << yes.out;
  EXPECT_EQ(run_cli({"--cache-dir", dir.path().string(), "ls", "--json"}).json()["count"], 0);
}

TEST(CliPrewarm, FailedBuildIsReportedWithItsReason) {
  TempDir dir;
  const auto manifest = write(dir, "m.toml", R"(
[operators.broken]
source = "__device__ bool broken(float a, float b) { return a < ; }"

[[merge_sort]]
keys = "float32"
compare = "broken"
)");
  auto r = run_cli({"--cache-dir", (dir.path() / "cache").string(), "prewarm", "--manifest",
                    manifest.string(), "--arch", "sm_90", "--json"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  auto j = r.json();
  EXPECT_EQ(j["built"], 0);
  ASSERT_EQ(j["failed"].size(), 1u);
  EXPECT_EQ(j["failed"][0]["arch"], "sm_90");
  EXPECT_NE(j["failed"][0]["spec"].get<std::string>().find("compare=broken"), std::string::npos);
  EXPECT_NE(j["failed"][0]["error"].get<std::string>().find("compile"), std::string::npos)
      << j.dump();
  // The NVRTC log keeps its lines: the message, then the log's own lines.
  const auto err = j["failed"][0]["error"].get<std::string>();
  const auto head = err.find("NVRTC could not compile");
  ASSERT_NE(head, std::string::npos) << err;
  const auto log = err.find('\n', head);
  ASSERT_NE(log, std::string::npos) << err;
  EXPECT_NE(err.find('\n', log + 1), std::string::npos) << err;
}

TEST(CliPrewarm, ManifestErrorsNameFileAndLine) {
  TempDir dir;
  const auto manifest =
      write(dir, "bad.toml", "[[merge_sort]]\nkeys = \"float32\"\noffset = \"float32\"\n");
  auto r = run_cli({"--cache-dir", (dir.path() / "cache").string(), "prewarm", "--manifest",
                    manifest.string(), "--arch", "sm_90"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.toml:1: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("offset"), std::string::npos) << r.err;
  auto missing = run_cli({"--cache-dir", (dir.path() / "cache").string(), "prewarm", "--manifest",
                          (dir.path() / "none.toml").string(), "--arch", "sm_90"});
  EXPECT_EQ(missing.code, 2) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "cache"));  // nothing built, nothing created
}

TEST(CliPrewarm, WithoutGpuAndWithoutArchAsksForArch) {
  auto ccs = cli::local_device_ccs();
  ASSERT_TRUE(ccs.has_value());
  if (!ccs->empty()) GTEST_SKIP() << "a GPU is present: its CCs are used";
  TempDir dir;
  const auto manifest = write(dir, "m.toml", "[[merge_sort]]\nkeys = \"float32\"\n");
  auto r = run_cli(
      {"--cache-dir", (dir.path() / "cache").string(), "prewarm", "--manifest", manifest.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no GPU found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--arch"), std::string::npos) << r.err;
}

TEST(CliPrewarm, BadArchIsAUsageError) {
  TempDir dir;
  const auto manifest = write(dir, "m.toml", "[[merge_sort]]\nkeys = \"float32\"\n");
  auto r = run_cli({"--cache-dir", (dir.path() / "cache").string(), "prewarm", "--manifest",
                    manifest.string(), "--arch", "sm_90,hopper"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'hopper'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cccl_cache::test
