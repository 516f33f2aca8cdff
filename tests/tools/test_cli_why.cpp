// why: the key of a spec, hit or miss, and the key component that differs from the
// nearest stored entries.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

using algos::ScalarType;

const char* const kAbsLess =
    "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }";
const char* const kAbsLessOther =
    "__device__ bool abs_less(float a, float b) { return fabsf(a) <= fabsf(b) && a != b; }";

// The components named for the nearest entry of `why --json`.
std::vector<std::string> nearest_components(const nlohmann::json& j) {
  std::vector<std::string> out;
  if (j["nearest"].empty()) return out;
  for (const auto& d : j["nearest"][0]["differs"]) out.push_back(d["component"].get<std::string>());
  return out;
}

TEST(CliWhy, HitWhenTheSpecIsStored) {
  TempDir dir;
  const CacheKey k = put_build(dir.path(), real_build(90));
  auto r = run_cli({"--cache-dir", dir.path().string(), "why",
                    "merge_sort keys=float32 values=none compare=less offset=int64", "--arch",
                    "sm_90", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["hit"], true);
  EXPECT_EQ(j["key"], k.to_string());
}

TEST(CliWhy, NamesTheDifferingKeyType) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  auto r = run_cli({"--cache-dir", dir.path().string(), "why", "merge_sort keys=int32", "--arch",
                    "sm_90", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["hit"], false);
  EXPECT_EQ(nearest_components(j), std::vector<std::string>{"keys"});
  EXPECT_EQ(j["nearest"][0]["differs"][0]["entry"], "float32");
  EXPECT_EQ(j["nearest"][0]["differs"][0]["wanted"], "int32");
  // The text form says it in words.
  auto t = run_cli(
      {"--cache-dir", dir.path().string(), "why", "merge_sort keys=int32", "--arch", "sm_90"});
  EXPECT_NE(t.out.find("MISS"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("differs in keys: entry has float32, wanted int32"), std::string::npos)
      << t.out;
}

TEST(CliWhy, NamesTheDifferingComputeCapabilityAndRanksNearestFirst) {
  TempDir dir;
  const CacheKey exact_but_cc = put_build(dir.path(), real_build(90));
  put_build(dir.path(), with_keys(real_build(90), ScalarType::int64));  // differs in two components
  auto j = run_cli({"--cache-dir", dir.path().string(), "why", "merge_sort keys=float32", "--arch",
                    "sm_80", "--json"})
               .json();
  EXPECT_EQ(j["stored_of_algorithm"], 2);
  ASSERT_EQ(j["nearest"].size(), 2u);
  EXPECT_EQ(j["nearest"][0]["key"], exact_but_cc.to_string());
  EXPECT_EQ(nearest_components(j), std::vector<std::string>{"compute capability"});
}

TEST(CliWhy, NamesTheDifferingValueAndOffsetTypes) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  auto j = run_cli({"--cache-dir", dir.path().string(), "why", "merge_sort", "keys=float32",
                    "values=int32", "offset=uint32", "--arch", "sm_90", "--json"})
               .json();
  EXPECT_EQ(nearest_components(j), (std::vector<std::string>{"values", "offset"}));
}

TEST(CliWhy, NamesTheDifferingToolchainAndFormatVersion) {
  TempDir dir;
  algos::Toolchain other = algos::Toolchain::current();
  other.nvrtc_minor += 1;
  auto b = real_build(90);
  b.record.toolchain = other.fingerprint("merge_sort");
  put_build(dir.path(), b, other);
  auto j = run_cli({"--cache-dir", dir.path().string(), "why", "merge_sort keys=float32", "--arch",
                    "sm_90", "--json"})
               .json();
  EXPECT_EQ(j["hit"], false);
  EXPECT_EQ(nearest_components(j), std::vector<std::string>{"toolchain"});
  EXPECT_EQ(j["nearest"][0]["differs"][0]["entry"], other.shared_fingerprint());
  EXPECT_EQ(j["nearest"][0]["differs"][0]["wanted"], algos::Toolchain::current().shared_fingerprint());

  TempDir dir2;
  algos::Toolchain newer = algos::Toolchain::current();
  newer.build_format_version += 1;
  b.record.toolchain = newer.fingerprint("merge_sort");
  put_build(dir2.path(), b, newer);
  auto j2 = run_cli({"--cache-dir", dir2.path().string(), "why", "merge_sort keys=float32",
                     "--arch", "sm_90", "--json"})
                .json();
  EXPECT_EQ(nearest_components(j2), (std::vector<std::string>{"toolchain", "format version"}));
}

// An entry built with another dispatch ABI of its own algorithm is a miss, and why names
// the ABI word; inspect says so too. Another algorithm's ABI is not the entry's: an
// entry stored under a toolchain that differs only there is a hit.
TEST(CliWhy, NamesTheAlgorithmsOwnDispatchAbi) {
  const auto& here = algos::Toolchain::current();
  algos::Toolchain older = here;
  older.dispatch_abi["merge_sort"] ^= 0xabcdef0000000000ull;
  const std::string wanted_fp = here.fingerprint("merge_sort");
  const std::string entry_fp = older.fingerprint("merge_sort");
  const auto wanted = algos::split_fingerprint(wanted_fp);
  const auto entry = algos::split_fingerprint(entry_fp);
  ASSERT_NE(entry.abi, wanted.abi);
  TempDir dir;
  auto b = real_build(90);
  b.record.toolchain = older.fingerprint("merge_sort");
  const CacheKey k = put_build(dir.path(), b, older);
  auto j = run_cli({"--cache-dir", dir.path().string(), "why", "merge_sort keys=float32", "--arch",
                    "sm_90", "--json"})
               .json();
  EXPECT_EQ(j["hit"], false);
  EXPECT_EQ(j["toolchain"], here.fingerprint("merge_sort"));
  EXPECT_EQ(nearest_components(j), std::vector<std::string>{"dispatch ABI"});
  EXPECT_EQ(j["nearest"][0]["differs"][0]["entry"], entry.abi);
  EXPECT_EQ(j["nearest"][0]["differs"][0]["wanted"], wanted.abi);
  auto t = run_cli(
      {"--cache-dir", dir.path().string(), "why", "merge_sort keys=float32", "--arch", "sm_90"});
  EXPECT_NE(t.out.find("differs in dispatch ABI: entry has " + std::string(entry.abi) +
                       ", wanted " + std::string(wanted.abi)),
            std::string::npos)
      << t.out;
  auto i = run_cli({"--cache-dir", dir.path().string(), "inspect", k.to_string()});
  EXPECT_NE(i.out.find("(another dispatch ABI of merge_sort: this cccl-cache's is " +
                       std::string(wanted.abi) + ")"),
            std::string::npos)
      << i.out;

  TempDir dir2;
  algos::Toolchain others_changed = here;
  others_changed.dispatch_abi["reduce"] ^= 1;
  others_changed.dispatch_abi["segmented_sort"] = 42;  // an algorithm added
  const CacheKey same = put_build(dir2.path(), real_build(90), others_changed);
  auto hit = run_cli({"--cache-dir", dir2.path().string(), "why", "merge_sort keys=float32",
                      "--arch", "sm_90", "--json"})
                 .json();
  EXPECT_EQ(hit["hit"], true);
  EXPECT_EQ(hit["key"], same.to_string());
  auto current = run_cli({"--cache-dir", dir2.path().string(), "inspect", same.to_string()});
  EXPECT_NE(current.out.find("(this toolchain)"), std::string::npos) << current.out;
}

TEST(CliWhy, NamesTheDifferingComparatorSource) {
  TempDir dir;
  auto b = real_build(90);
  b.spec.comparator = algos::Comparator::custom("abs_less", kAbsLess);
  b.record.spec = algos::encode_fields(b.spec);
  put_build(dir.path(), b);
  // Each argument one token: a value may hold spaces.
  auto same =
      run_cli({"--cache-dir", dir.path().string(), "why", "merge_sort", "keys=float32",
               "compare=abs_less", std::string("source=") + kAbsLess, "--arch", "sm_90", "--json"})
          .json();
  EXPECT_EQ(same["hit"], true);
  auto other = run_cli({"--cache-dir", dir.path().string(), "why", "merge_sort", "keys=float32",
                        "compare=abs_less", std::string("source=") + kAbsLessOther, "--arch",
                        "sm_90", "--json"})
                   .json();
  EXPECT_EQ(other["hit"], false);
  EXPECT_EQ(nearest_components(other), std::vector<std::string>{"compare source"});
  auto less = run_cli({"--cache-dir", dir.path().string(), "why",
                       "merge_sort keys=float32 compare=less", "--arch", "sm_90", "--json"})
                  .json();
  EXPECT_EQ(nearest_components(less), std::vector<std::string>{"compare"});
}

TEST(CliWhy, EmptyCacheSaysThereIsNothingToCompare) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  ASSERT_EQ(run_cli({"--cache-dir", dir.path().string(), "clear", "--yes"}).code, 0);
  auto r = run_cli(
      {"--cache-dir", dir.path().string(), "why", "merge_sort keys=float32", "--arch", "sm_90"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("no stored merge_sort entries"), std::string::npos) << r.out;
}

TEST(CliWhy, BadSpecIsAUsageError) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  for (const char* spec : {"merge_sort keys=float33", "merge_sort keys=float32 colour=red",
                           "histogram keys=int32", "merge_sort keys=float32 compare=abs_less",
                           "merge_sort keys=float32 source='unterminated"}) {
    auto r = run_cli({"--cache-dir", dir.path().string(), "why", spec, "--arch", "sm_90"});
    EXPECT_EQ(r.code, 2) << spec;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace cccl_cache::test
