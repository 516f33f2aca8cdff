// Mixed fleets through the CLI: why names the entry that serves a device (exact first,
// else a lower minor of the same major with cc_fallback on; never a higher minor or
// another major), inspect lists the devices an entry serves.
#include <gtest/gtest.h>

#include <fstream>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

namespace fs = std::filesystem;
const char* kSpec = "merge_sort keys=float32 values=none compare=less offset=int64";

nlohmann::json why(const fs::path& dir, const std::string& arch, const std::string& config = {}) {
  std::vector<std::string> args{"--cache-dir", dir.string(), "why", kSpec, "--arch", arch, "--json"};
  if (!config.empty()) args.insert(args.begin(), {"--config", config});
  auto r = run_cli(args);
  EXPECT_EQ(r.code, 0) << r.err;
  return r.json();
}

// The sm_80 build stored under the key of `cc` (the CLI reads it by its checksum only).
CacheKey put_as(const fs::path& dir, std::uint32_t cc) {
  const auto& b = real_build(80);
  const CacheKey key = algos::merge_sort::cache_key(b.spec, cc);
  EntryMeta meta;
  meta.algorithm = "merge_sort";
  meta.toolchain = b.record.toolchain;
  meta.payload_format = algos::kBuildFormatVersion;
  put_raw(dir, key, meta, algos::serialize(b));
  return key;
}

TEST(CliFleet, WhyNamesTheEntryThatServesEachDevice) {
  TempDir dir, files;
  const CacheKey k80 = put_build(dir.path(), real_build(80));
  auto j = why(dir.path(), "sm_86");
  EXPECT_EQ(j["hit"], true);
  EXPECT_EQ(j["served_by"]["key"], k80.to_string());
  EXPECT_EQ(j["served_by"]["arch"], "sm_80");
  EXPECT_EQ(j["served_by"]["exact"], false);
  EXPECT_EQ(why(dir.path(), "sm_89")["served_by"]["arch"], "sm_80");
  EXPECT_EQ(why(dir.path(), "sm_80")["served_by"]["exact"], true);
  EXPECT_EQ(why(dir.path(), "sm_90")["hit"], false) << "never across majors";

  const auto off = files.path() / "off.toml";
  std::ofstream(off) << "cc_fallback = false\n";
  EXPECT_EQ(why(dir.path(), "sm_86", off.string())["hit"], false) << "cc_fallback off: exact only";

  auto text = run_cli({"--cache-dir", dir.path().string(), "why", kSpec, "--arch", "sm_86"});
  EXPECT_NE(text.out.find("served by the sm_80 entry " + k80.to_string()), std::string::npos)
      << text.out;

  // An exact entry wins over the lower minor's; the nearest lower minor wins over a lower one.
  const CacheKey k86 = put_as(dir.path(), 86);
  EXPECT_EQ(why(dir.path(), "sm_86")["served_by"]["key"], k86.to_string());
  EXPECT_EQ(why(dir.path(), "sm_89")["served_by"]["arch"], "sm_86");
  EXPECT_EQ(why(dir.path(), "sm_80")["served_by"]["key"], k80.to_string());
}

TEST(CliFleet, AHigherMinorNeverServesALowerOne) {
  TempDir dir;
  put_as(dir.path(), 86);
  EXPECT_EQ(why(dir.path(), "sm_80")["hit"], false);
  EXPECT_EQ(why(dir.path(), "sm_89")["served_by"]["arch"], "sm_86");
}

TEST(CliFleet, InspectListsTheDevicesAnEntryServes) {
  TempDir dir;
  const CacheKey k80 = put_build(dir.path(), real_build(80));
  auto serves = [&] {
    auto r = run_cli({"--cache-dir", dir.path().string(), "inspect", k80.to_string(), "--json"});
    EXPECT_EQ(r.code, 0) << r.err;
    const auto j = r.json();  // kept alive while its array is read
    std::vector<std::string> out;
    for (const auto& cc : j["serves_devices"]) out.push_back(cc.get<std::string>());
    return out;
  };
  auto all = serves();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), "sm_80");
  EXPECT_NE(std::find(all.begin(), all.end(), "sm_86"), all.end());
  EXPECT_EQ(std::find(all.begin(), all.end(), "sm_90"), all.end());
  put_as(dir.path(), 86);  // 8.6 and up now have a nearer entry
  EXPECT_EQ(serves(), std::vector<std::string>{"sm_80"});
  auto text = run_cli({"--cache-dir", dir.path().string(), "inspect", k80.to_string()});
  EXPECT_NE(text.out.find("serves devices: sm_80\n"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace cccl_cache::test
