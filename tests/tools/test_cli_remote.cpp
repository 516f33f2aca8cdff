// cccl-cache remote ping, push, pull and stats' tier rows against a real redis-server
// started by the test (skipped without it). Entries are raw payloads: push and pull
// copy verified envelopes and never look inside.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "cli_test_util.hpp"
#include "redis_server.hpp"

namespace cccl_cache::test {
namespace {

CacheKey key_of(std::uint64_t i, std::uint32_t cc) {
  return CacheKey{Digest128{0xfeed'0000ull + i, i * 7 + 1}, cc};
}

EntryMeta meta_of(const std::string& algorithm, std::uint64_t i) {
  EntryMeta m;
  m.algorithm = algorithm;
  m.summary = "entry " + std::to_string(i);
  m.toolchain = "test-toolchain";
  m.payload_format = 1;
  return m;
}

std::vector<std::byte> payload_of(std::uint64_t i) {
  std::vector<std::byte> p(4096 + i * 100);
  for (std::size_t k = 0; k < p.size(); ++k) p[k] = static_cast<std::byte>((k * 31 + i) & 0xff);
  return p;
}

// A config file naming the remote `url` (run_cli keeps CCCL_CACHE_* out of the CLI's
// environment); `args` prepends --config to a command line.
class RemoteEnv {
 public:
  // `extra`: more TOML lines.
  explicit RemoteEnv(const std::string& url, const std::string& extra = "")
      : file_(dir_.path() / "config.toml") {
    std::ofstream(file_) << "remote = \"" << url << "\"\n" << extra;
  }
  std::vector<std::string> args(std::vector<std::string> rest) const {
    rest.insert(rest.begin(), {"--config", file_.string()});
    return rest;
  }

 private:
  TempDir dir_;
  std::filesystem::path file_;
};

TEST(CliRemote, PingReportsReachability) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  RemoteEnv env(server.url());
  auto ok = run_cli(env.args({"remote", "ping", "--json"}));
  ASSERT_EQ(ok.code, 0) << ok.err;
  auto j = ok.json();
  EXPECT_TRUE(j["reachable"].get<bool>());
  EXPECT_GT(j["round_trip_ms"].get<double>(), 0.0);
  server.kill();
  auto down = run_cli(env.args({"remote", "ping", "--timeout-ms", "200"}));
  EXPECT_EQ(down.code, 3);
  EXPECT_NE(down.err.find("connect"), std::string::npos) << down.err;
}

TEST(CliRemote, NoRemoteConfiguredIsAUsageError) {
  TempDir dir;
  auto r = run_cli({"--cache-dir", dir.path().string(), "push"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("CCCL_CACHE_REMOTE"), std::string::npos) << r.err;
}

TEST(CliRemote, PushThenPullByFilter) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  RemoteEnv env(server.url());
  TempDir a, b;
  put_raw(a.path(), key_of(1, 90), meta_of("merge_sort", 1), payload_of(1));
  put_raw(a.path(), key_of(2, 80), meta_of("merge_sort", 2), payload_of(2));
  put_raw(a.path(), key_of(3, 90), meta_of("reduce", 3), payload_of(3));

  auto dry = run_cli(env.args({"--cache-dir", a.path().string(), "push", "--dry-run", "--json"}));
  ASSERT_EQ(dry.code, 0) << dry.err;
  EXPECT_EQ(dry.json()["copied"].get<int>(), 3);
  auto pushed = run_cli(env.args({"--cache-dir", a.path().string(), "push", "--algorithm", "merge_sort", "--json"}));
  ASSERT_EQ(pushed.code, 0) << pushed.err;
  EXPECT_EQ(pushed.json()["copied"].get<int>(), 2);
  auto again = run_cli(env.args({"--cache-dir", a.path().string(), "push", "--json"}));
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["copied"].get<int>(), 1);  // the reduce entry
  EXPECT_EQ(again.json()["already_present"].get<int>(), 2);

  auto pulled = run_cli(env.args({"--cache-dir", b.path().string(), "pull", "--arch", "sm_90", "--json"}));
  ASSERT_EQ(pulled.code, 0) << pulled.err;
  EXPECT_EQ(pulled.json()["copied"].get<int>(), 2);  // keys 1 and 3
  auto store = open_store(b.path());
  for (std::uint64_t i : {1u, 3u}) {
    auto e = store->peek(key_of(i, 90));
    ASSERT_TRUE(e && *e) << i;
    EXPECT_EQ((*e)->payload, payload_of(i));
    EXPECT_EQ((*e)->meta.summary, meta_of("", i).summary);
  }
  auto absent = store->peek(key_of(2, 80));
  ASSERT_TRUE(absent);
  EXPECT_FALSE(*absent);
  auto text = run_cli(env.args({"--cache-dir", b.path().string(), "pull"}));
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("pulled 1 entry"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("2 already there"), std::string::npos) << text.out;
}

TEST(CliRemote, StatsHasARowPerTier) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  RemoteEnv env(server.url());
  TempDir a;
  put_raw(a.path(), key_of(1, 90), meta_of("merge_sort", 1), payload_of(1));
  ASSERT_EQ(run_cli(env.args({"--cache-dir", a.path().string(), "push"})).code, 0);
  auto r = run_cli(env.args({"--cache-dir", a.path().string(), "stats", "--json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  auto tiers = r.json()["tiers"];
  ASSERT_EQ(tiers.size(), 2u);
  EXPECT_EQ(tiers[0]["entries"].get<int>(), 1);
  EXPECT_EQ(tiers[0]["requests"].get<int>(), 1);  // put_raw's write; push only peeks
  EXPECT_EQ(r.json()["put_requests"].get<int>(), 1);
  EXPECT_TRUE(tiers[1]["available"].get<bool>());
  EXPECT_EQ(tiers[1]["puts"].get<int>(), 1);  // flushed by the push's client
  EXPECT_EQ(tiers[1]["requests"].get<int>(), 1);  // its one SET
  auto text = run_cli(env.args({"--cache-dir", a.path().string(), "stats"}));
  EXPECT_NE(text.out.find("reachable"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("entries 1  requests 1  hits 0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("reachable ("), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(")  requests 1  hits 0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(" written, 1 write request)"), std::string::npos) << text.out;
  server.kill();
  auto down = run_cli(env.args({"--cache-dir", a.path().string(), "stats", "--json"}));
  ASSERT_EQ(down.code, 0) << down.err;  // the local stats still print
  EXPECT_FALSE(down.json()["tiers"][1]["available"].get<bool>());
}

// The public key line keygen wrote for `name` into `dir`.
std::string keygen(const TempDir& dir, const std::string& name) {
  auto r = run_cli({"keygen", name, "--out-dir", dir.path().string()});
  EXPECT_EQ(r.code, 0) << r.err;
  std::ifstream in(dir.path() / (name + ".pub"));
  std::string line;
  std::getline(in, line);
  return line;
}

// push signs with signing_key; pull with trusted_keys copies only entries signed by a
// trusted key, and fails (exit 1) on the others without writing them.
TEST(CliRemote, PushSignsAndPullChecksSignatures) {
  CCCL_CACHE_REQUIRE_REDIS();
  RedisServer server;
  TempDir keys, signed_src, unsigned_src, reader, stranger;
  const std::string ci = keygen(keys, "ci"), other = keygen(keys, "other");
  RemoteEnv publisher(server.url(),
                      "signing_key = \"" + (keys.path() / "ci.sec").string() + "\"\n");
  RemoteEnv plain(server.url());
  put_raw(signed_src.path(), key_of(1, 90), meta_of("merge_sort", 1), payload_of(1));
  put_raw(unsigned_src.path(), key_of(2, 90), meta_of("merge_sort", 2), payload_of(2));
  ASSERT_EQ(run_cli(publisher.args({"--cache-dir", signed_src.path().string(), "push"})).code, 0);
  ASSERT_EQ(run_cli(plain.args({"--cache-dir", unsigned_src.path().string(), "push"})).code, 0);

  RemoteEnv trusting_ci(server.url(), "trusted_keys = [\"" + ci + "\"]\n");
  auto pulled = run_cli(trusting_ci.args({"--cache-dir", reader.path().string(), "pull", "--json"}));
  EXPECT_EQ(pulled.code, 1) << pulled.err;  // the unsigned entry failed
  EXPECT_EQ(pulled.json()["copied"].get<int>(), 1);
  EXPECT_EQ(pulled.json()["failed"].get<int>(), 1);
  auto store = open_store(reader.path());
  EXPECT_TRUE(*store->peek(key_of(1, 90)));
  EXPECT_FALSE(*store->peek(key_of(2, 90)));

  RemoteEnv trusting_other(server.url(), "trusted_keys = [\"" + other + "\"]\n");
  auto refused = run_cli(trusting_other.args({"--cache-dir", stranger.path().string(), "pull", "--json"}));
  EXPECT_EQ(refused.code, 1) << refused.err;
  EXPECT_EQ(refused.json()["copied"].get<int>(), 0);
  EXPECT_EQ(refused.json()["failed"].get<int>(), 2);
}

}  // namespace
}  // namespace cccl_cache::test
