// export / import: a round trip into a fresh cache, damaged archives, and never
// replacing a good entry with a bad one.
#include <gtest/gtest.h>

#include <fstream>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

using algos::ScalarType;

std::vector<std::byte> payload_of(const TempDir& dir, const CacheKey& key) {
  auto store = open_store(dir.path());
  auto e = store->peek(key);
  EXPECT_TRUE(e && *e) << key.to_string();
  return e && *e ? (*e)->payload : std::vector<std::byte>{};
}

class CliArchive : public ::testing::TestWithParam<bool> {};

TEST_P(CliArchive, RoundTripIntoAFreshCache) {
  const bool compress = GetParam();
  TempDir src, dst, files;
  const CacheKey k1 = put_build(src.path(), real_build(90));
  const CacheKey k2 = put_build(src.path(), real_build(80));
  const auto file = (files.path() / "cache.cccl").string();
  std::vector<std::string> args{"--cache-dir", src.path().string(), "export", file};
  if (!compress) args.push_back("--no-compress");
  auto ex = run_cli(args);
  ASSERT_EQ(ex.code, 0) << ex.err;
  EXPECT_NE(ex.out.find("exported 2 entries"), std::string::npos) << ex.out;
  const auto size = std::filesystem::file_size(file);
  const auto raw = algos::serialize(real_build(90)).size() +
                   algos::serialize(real_build(80)).size();
  if (compress)
    EXPECT_LT(size, raw / 2);
  else
    EXPECT_GT(size, raw);

  auto im = run_cli({"--cache-dir", (dst.path() / "new").string(), "import", file, "--json"});
  ASSERT_EQ(im.code, 0) << im.out << im.err;
  auto j = im.json();
  EXPECT_EQ(j["imported"], 2);
  EXPECT_EQ(j["bad"], 0);
  // Same keys, byte-identical payloads, and the imported cache verifies clean.
  auto ls = run_cli({"--cache-dir", (dst.path() / "new").string(), "ls", "--json"}).json();
  EXPECT_EQ(ls["count"], 2);
  auto vr = run_cli({"--cache-dir", (dst.path() / "new").string(), "verify"});
  EXPECT_EQ(vr.code, 0) << vr.out;
  {
    auto a = open_store(src.path());
    Config c = Config::defaults();
    c.dir = dst.path() / "new";
    auto b = Store::open(c).value();
    for (const auto& k : {k1, k2}) {
      EXPECT_EQ(a->peek(k).value()->payload, b->peek(k).value()->payload);
      EXPECT_EQ(a->peek(k).value()->meta.summary, b->peek(k).value()->meta.summary);
    }
  }
  // A second import finds everything present.
  auto again = run_cli({"--cache-dir", (dst.path() / "new").string(), "import", file, "--json"});
  EXPECT_EQ(again.code, 0);
  EXPECT_EQ(again.json()["already_present"], 2);
}

INSTANTIATE_TEST_SUITE_P(Compression, CliArchive, ::testing::Values(true, false));

TEST(CliImport, SkipsAndReportsADamagedEntryAndKeepsTheGoodCopy) {
  TempDir src, dst, files;
  const auto& b = real_build(90);
  const CacheKey damaged = put_build(src.path(), b);
  const CacheKey fine = put_build(src.path(), real_build(80));
  const auto file = files.path() / "cache.cccl";
  ASSERT_EQ(
      run_cli({"--cache-dir", src.path().string(), "export", file.string(), "--no-compress"}).code,
      0);
  const auto mid = b.record.cubin.begin() + static_cast<std::ptrdiff_t>(b.record.cubin.size() / 2);
  ASSERT_EQ(flip_byte_in_file(file, std::vector<std::byte>(mid, mid + 64)), 1);

  // The target already holds a good copy of the entry that is damaged in the archive.
  put_build(dst.path(), b);
  auto im = run_cli({"--cache-dir", dst.path().string(), "import", file.string(), "--json"});
  EXPECT_EQ(im.code, 1) << im.out;
  auto j = im.json();
  EXPECT_EQ(j["imported"], 1);
  EXPECT_EQ(j["bad"], 2);  // the entry's checksum, then the trailer's
  EXPECT_NE(j["problems"][0].get<std::string>().find(damaged.to_string()), std::string::npos)
      << j.dump();
  EXPECT_EQ(payload_of(dst, damaged), algos::serialize(b));
  EXPECT_EQ(payload_of(dst, fine), algos::serialize(real_build(80)));
  EXPECT_EQ(run_cli({"--cache-dir", dst.path().string(), "verify"}).code, 0);
}

// import recomputes every entry's key from the payload's own spec, CC and toolchain: an
// entry under another key is rejected, and so is one of another toolchain, whose key
// cannot be recomputed here (the key covers the full compile options, a payload only
// their fingerprint).
TEST(CliImport, RejectsWrongKeysAndStaleToolchains) {
  TempDir src, dst, files;
  const auto& b = real_build(90);
  const CacheKey good = put_build(src.path(), b);
  algos::Toolchain old = algos::Toolchain::current();
  old.nvjitlink_minor += 1;
  auto built_by_old = with_keys(b, ScalarType::int16);
  built_by_old.record.toolchain = old.fingerprint("merge_sort");
  const CacheKey stale = put_build(src.path(), built_by_old, old);
  const auto moved = with_keys(b, ScalarType::int32);
  const CacheKey wrong = algos::merge_sort::cache_key(with_keys(b, ScalarType::uint32).spec, 90);
  put_raw(src.path(), wrong,
          EntryMeta{"merge_sort", algos::merge_sort::summary(moved.spec), moved.record.toolchain,
                    algos::kBuildFormatVersion},
          algos::serialize(moved));
  const auto file = files.path() / "cache.cccl";
  ASSERT_EQ(run_cli({"--cache-dir", src.path().string(), "export", file.string()}).code, 0);

  auto im = run_cli({"--cache-dir", dst.path().string(), "import", file.string(), "--json"});
  EXPECT_EQ(im.code, 1) << im.out;
  auto j = im.json();
  EXPECT_EQ(j["imported"], 1);
  ASSERT_EQ(j["bad"], 2) << j.dump();
  std::string problems;
  for (const auto& p : j["problems"]) problems += p.get<std::string>() + "\n";
  EXPECT_NE(problems.find(stale.to_string() + ": stale toolchain"), std::string::npos) << problems;
  EXPECT_NE(problems.find(wrong.to_string() + ": stored under the wrong key"), std::string::npos)
      << problems;
  auto ls = run_cli({"--cache-dir", dst.path().string(), "ls", "--json"}).json();
  ASSERT_EQ(ls["count"], 1);
  EXPECT_EQ(ls["entries"][0]["key"], good.to_string());
}

TEST(CliImport, RejectsWhatIsNotAnArchive) {
  TempDir dst, files;
  const auto file = files.path() / "junk";
  { std::ofstream(file) << "this is not an archive"; }
  auto r = run_cli({"--cache-dir", dst.path().string(), "import", file.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("not a cccl-cache archive"), std::string::npos) << r.err;
  auto missing =
      run_cli({"--cache-dir", dst.path().string(), "import", (files.path() / "nope").string()});
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.err.find("cannot read archive"), std::string::npos) << missing.err;
}

TEST(CliExport, FiltersByArch) {
  TempDir src, dst, files;
  put_build(src.path(), real_build(90));
  const CacheKey k80 = put_build(src.path(), real_build(80));
  const auto file = (files.path() / "a").string();
  ASSERT_EQ(run_cli({"--cache-dir", src.path().string(), "export", file, "--arch", "sm_80"}).code,
            0);
  ASSERT_EQ(run_cli({"--cache-dir", dst.path().string(), "import", file}).code, 0);
  auto ls = run_cli({"--cache-dir", dst.path().string(), "ls", "--json"}).json();
  ASSERT_EQ(ls["count"], 1);
  EXPECT_EQ(ls["entries"][0]["key"], k80.to_string());
}

}  // namespace
}  // namespace cccl_cache::test
