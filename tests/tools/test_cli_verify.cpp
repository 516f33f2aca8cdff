// verify: entries whose checksum fails (bytes flipped in data.mdb) and entries whose
// payload does not deserialize are listed with exit 1; --repair removes them.
#include <gtest/gtest.h>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

using algos::ScalarType;

std::size_t entry_count(const TempDir& dir) {
  auto r = run_cli({"--cache-dir", dir.path().string(), "ls", "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  return r.json()["count"].get<std::size_t>();
}

TEST(CliVerify, CleanCachePasses) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  put_build(dir.path(), real_build(80));
  auto r = run_cli({"--cache-dir", dir.path().string(), "verify", "--json"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  auto j = r.json();
  EXPECT_EQ(j["checked"], 2);
  EXPECT_EQ(j["ok"], 2);
  EXPECT_TRUE(j["bad"].empty());
}

TEST(CliVerify, CatchesFlippedBytesInDataMdbAndRepairs) {
  TempDir dir;
  const auto& b = real_build(90);
  const CacheKey good = put_build(dir.path(), real_build(80));
  const CacheKey bad = put_build(dir.path(), b);
  // 64 bytes from the middle of the sm_90 cubin: stored verbatim in one place only.
  const auto mid = b.record.cubin.begin() + static_cast<std::ptrdiff_t>(b.record.cubin.size() / 2);
  ASSERT_EQ(flip_byte_in_file(dir.path() / "data.mdb", std::vector<std::byte>(mid, mid + 64)), 1);

  auto r = run_cli({"--cache-dir", dir.path().string(), "verify", "--json"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  auto j = r.json();
  ASSERT_EQ(j["bad"].size(), 1u);
  EXPECT_EQ(j["bad"][0]["key"], bad.to_string());
  EXPECT_NE(j["bad"][0]["reason"].get<std::string>().find("checksum"), std::string::npos);
  EXPECT_EQ(j["bad"][0]["removed"], false);
  EXPECT_EQ(entry_count(dir), 2u);  // verify alone changes nothing
  auto inspect = run_cli({"--cache-dir", dir.path().string(), "inspect", bad.to_string()});
  EXPECT_EQ(inspect.code, 1);
  EXPECT_NE(inspect.err.find("fails its checksum"), std::string::npos) << inspect.err;

  // export leaves the corrupt entry out and says so.
  auto ex = run_cli({"--cache-dir", dir.path().string(), "export", (dir.path() / "a").string()});
  EXPECT_EQ(ex.code, 1);
  EXPECT_NE(ex.out.find("exported 1 entries"), std::string::npos) << ex.out;
  EXPECT_NE(ex.err.find("skipping " + bad.to_string()), std::string::npos) << ex.err;

  auto text = run_cli({"--cache-dir", dir.path().string(), "verify"});
  EXPECT_EQ(text.code, 1);
  EXPECT_NE(text.out.find("BAD " + bad.to_string()), std::string::npos) << text.out;

  auto repair = run_cli({"--cache-dir", dir.path().string(), "verify", "--repair"});
  EXPECT_EQ(repair.code, 1) << repair.err;
  EXPECT_NE(repair.out.find("(removed)"), std::string::npos) << repair.out;
  auto after = run_cli({"--cache-dir", dir.path().string(), "verify", "--json"});
  EXPECT_EQ(after.code, 0) << after.out;
  EXPECT_EQ(after.json()["ok"], 1);
  auto left = run_cli({"--cache-dir", dir.path().string(), "ls", "--json"}).json();
  ASSERT_EQ(left["count"], 1);
  EXPECT_EQ(left["entries"][0]["key"], good.to_string());
}

TEST(CliVerify, CatchesAPayloadThatDoesNotDeserialize) {
  TempDir dir;
  const auto& b = real_build(90);
  put_build(dir.path(), b);
  // A well-checksummed envelope around a truncated build result.
  auto spec = b.spec;
  spec.key_type = ScalarType::uint32;
  auto payload = algos::serialize(b);
  payload.resize(payload.size() / 3);
  const CacheKey key = algos::cache_key(spec, 90);
  EntryMeta meta{"merge_sort", algos::merge_sort::summary(spec), b.record.toolchain,
                 algos::kBuildFormatVersion};
  put_raw(dir.path(), key, meta, payload);

  auto r = run_cli({"--cache-dir", dir.path().string(), "verify", "--json"});
  EXPECT_EQ(r.code, 1);
  auto j = r.json();
  ASSERT_EQ(j["bad"].size(), 1u);
  EXPECT_EQ(j["bad"][0]["key"], key.to_string());
  EXPECT_NE(j["bad"][0]["reason"].get<std::string>().find("deserialize"), std::string::npos)
      << j.dump();

  auto repair = run_cli({"--cache-dir", dir.path().string(), "verify", "--repair", "--json"});
  EXPECT_EQ(repair.code, 1);
  EXPECT_EQ(repair.json()["bad"][0]["removed"], true);
  EXPECT_EQ(entry_count(dir), 1u);
  EXPECT_EQ(run_cli({"--cache-dir", dir.path().string(), "verify"}).code, 0);
}

TEST(CliVerify, CatchesAnEntryUnderTheWrongKey) {
  TempDir dir;
  const auto& b = real_build(90);
  const CacheKey wrong = algos::cache_key(with_keys(b, ScalarType::int32).spec, 90);
  EntryMeta meta{"merge_sort", algos::merge_sort::summary(b.spec), b.record.toolchain,
                 algos::kBuildFormatVersion};
  put_raw(dir.path(), wrong, meta, algos::serialize(b));
  auto j = run_cli({"--cache-dir", dir.path().string(), "verify", "--json"}).json();
  ASSERT_EQ(j["bad"].size(), 1u);
  EXPECT_NE(j["bad"][0]["reason"].get<std::string>().find("wrong key"), std::string::npos)
      << j.dump();
}

// An entry of another toolchain is sound but never used by this one, and its key cannot
// be recomputed here: verify and inspect report it as stale; verify keeps it (it is no
// problem: 'evict --toolchain-mismatch' is the tool to remove such entries).
TEST(CliVerify, ReportsAStaleToolchain) {
  TempDir dir;
  const CacheKey good = put_build(dir.path(), real_build(90));
  algos::Toolchain old = algos::Toolchain::current();
  old.cccl_version -= 1;
  auto b = with_keys(real_build(90), ScalarType::int32);
  b.record.toolchain = old.fingerprint("merge_sort");
  const CacheKey stale = put_build(dir.path(), b, old);

  auto r = run_cli({"--cache-dir", dir.path().string(), "verify", "--json"});
  EXPECT_EQ(r.code, 0) << r.out;
  auto j = r.json();
  EXPECT_EQ(j["ok"], 1);
  EXPECT_EQ(j["bad"].size(), 0u);
  ASSERT_EQ(j["stale"].size(), 1u) << j.dump();
  EXPECT_EQ(j["stale"][0]["key"], stale.to_string());
  EXPECT_NE(j["stale"][0]["reason"].get<std::string>().find(old.fingerprint("merge_sort")), std::string::npos)
      << j.dump();
  auto text = run_cli({"--cache-dir", dir.path().string(), "verify", "--repair"});
  EXPECT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("STALE " + stale.to_string()), std::string::npos) << text.out;
  EXPECT_EQ(entry_count(dir), 2u);

  auto inspect = run_cli({"--cache-dir", dir.path().string(), "inspect", stale.to_string(), "--json"});
  EXPECT_EQ(inspect.code, 0) << inspect.err;
  EXPECT_EQ(inspect.json()["check"], "stale");
  auto mine = run_cli({"--cache-dir", dir.path().string(), "inspect", good.to_string(), "--json"});
  EXPECT_EQ(mine.json()["check"], "ok");
}

TEST(CliVerify, UnknownAlgorithmIsCheckedByChecksumOnly) {
  TempDir dir;
  EntryMeta meta{"future_algo", "x=1", "tc", 7};
  put_raw(dir.path(), CacheKey{{5, 6}, 90}, meta, std::vector<std::byte>(100, std::byte{1}));
  auto r = run_cli({"--cache-dir", dir.path().string(), "verify", "--json"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.json()["unchecked"], 1);
}

}  // namespace
}  // namespace cccl_cache::test
