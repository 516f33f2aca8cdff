// evict by each criterion, with and without --dry-run.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

using algos::ScalarType;

std::set<std::string> listed_keys(const TempDir& dir) {
  auto r = run_cli({"--cache-dir", dir.path().string(), "ls", "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  std::set<std::string> keys;
  const auto j = r.json();
  for (const auto& e : j["entries"]) keys.insert(e["key"].get<std::string>());
  return keys;
}

std::set<std::string> removed_keys(const nlohmann::json& j) {
  std::set<std::string> keys;
  for (const auto& e : j["removed"]) keys.insert(e["key"].get<std::string>());
  return keys;
}

TEST(CliEvict, ByArch) {
  TempDir dir;
  const CacheKey k90 = put_build(dir.path(), real_build(90));
  const CacheKey k80 = put_build(dir.path(), real_build(80));
  auto r = run_cli({"--cache-dir", dir.path().string(), "evict", "--arch", "sm_80", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(removed_keys(j), std::set<std::string>{k80.to_string()});
  EXPECT_EQ(j["bytes_freed"].get<std::uint64_t>(),
            algos::serialize(real_build(80)).size());
  EXPECT_EQ(listed_keys(dir), std::set<std::string>{k90.to_string()});
}

TEST(CliEvict, ByAlgorithm) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  put_build(dir.path(), with_keys(real_build(90), ScalarType::int32));
  auto other =
      run_cli({"--cache-dir", dir.path().string(), "evict", "--algorithm", "reduce", "--json"});
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_EQ(other.json()["count"], 0);
  auto ms = run_cli({"--cache-dir", dir.path().string(), "evict", "--algorithm", "merge_sort"});
  ASSERT_EQ(ms.code, 0) << ms.err;
  EXPECT_NE(ms.out.find("removed 2 entries"), std::string::npos) << ms.out;
  EXPECT_TRUE(listed_keys(dir).empty());
}

TEST(CliEvict, ByToolchainMismatch) {
  TempDir dir;
  const CacheKey mine = put_build(dir.path(), real_build(90));
  algos::Toolchain old = algos::Toolchain::current();
  old.cccl_version -= 1;
  auto b = real_build(90);
  b.record.toolchain = old.fingerprint("merge_sort");
  const CacheKey stale = put_build(dir.path(), b, old);
  // Merge sort's own dispatch ABI changed: its entries are stale too.
  algos::Toolchain old_abi = algos::Toolchain::current();
  old_abi.dispatch_abi["merge_sort"] ^= 0x1234000000000000ull;
  auto c = with_keys(real_build(90), ScalarType::int64);
  c.record.toolchain = old_abi.fingerprint("merge_sort");
  const CacheKey stale_abi = put_build(dir.path(), c, old_abi);
  auto r = run_cli({"--cache-dir", dir.path().string(), "evict", "--toolchain-mismatch", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(removed_keys(r.json()), (std::set<std::string>{stale.to_string(), stale_abi.to_string()}));
  EXPECT_EQ(listed_keys(dir), std::set<std::string>{mine.to_string()});
}

TEST(CliEvict, ByMaxSizeKeepsTheMostRecentlyUsed) {
  TempDir dir;
  const auto& b = real_build(90);
  const CacheKey a = put_build(dir.path(), with_keys(b, ScalarType::int8));
  const CacheKey c = put_build(dir.path(), with_keys(b, ScalarType::int16));
  const CacheKey d = put_build(dir.path(), with_keys(b, ScalarType::int32));
  const auto one = algos::serialize(b).size();
  auto r = run_cli({"--cache-dir", dir.path().string(), "evict", "--max-size",
                    std::to_string(one + one / 2), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(removed_keys(j), (std::set<std::string>{a.to_string(), c.to_string()}));
  EXPECT_EQ(j["bytes_freed"].get<std::uint64_t>(), 2 * one);
  EXPECT_EQ(listed_keys(dir), std::set<std::string>{d.to_string()});
}

TEST(CliEvict, ByAgeRemovesOnlyEntriesUnusedForLonger) {
  TempDir dir;
  const CacheKey old = put_build(dir.path(), real_build(90));
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));  // entry times have 1 s resolution
  const CacheKey fresh = put_build(dir.path(), real_build(80));
  auto r = run_cli({"--cache-dir", dir.path().string(), "evict", "--older-than", "1s", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(removed_keys(r.json()), std::set<std::string>{old.to_string()});
  EXPECT_EQ(listed_keys(dir), std::set<std::string>{fresh.to_string()});
  // Nothing is a day old.
  auto day = run_cli({"--cache-dir", dir.path().string(), "evict", "--older-than", "1d", "--json"});
  EXPECT_EQ(day.json()["count"], 0);
}

TEST(CliEvict, DryRunPrintsButRemovesNothing) {
  TempDir dir;
  const CacheKey k = put_build(dir.path(), real_build(90));
  auto r = run_cli({"--cache-dir", dir.path().string(), "evict", "--arch", "sm_90", "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("would remove " + k.to_string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("would be freed"), std::string::npos) << r.out;
  EXPECT_EQ(listed_keys(dir), std::set<std::string>{k.to_string()});
}

TEST(CliEvict, WithoutCriterionOrWithBadValuesIsAUsageError) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  for (std::vector<std::string> args : {std::vector<std::string>{"evict"},
                                        {"evict", "--older-than", "soon"},
                                        {"evict", "--max-size", "lots"},
                                        {"evict", "--arch", "sm_x"}}) {
    args.insert(args.begin(), {"--cache-dir", dir.path().string()});
    auto r = run_cli(args);
    EXPECT_EQ(r.code, 2) << args.back() << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(listed_keys(dir).size(), 1u);
}

}  // namespace
}  // namespace cccl_cache::test
